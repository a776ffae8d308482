package io.guard.ratelimit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether this machine's CPU is saturated, so that a reply may be late in the client rather than in Redis: asked
 * only when a backend call times out, never per decision. On Linux it reads CPU pressure ({@code /proc/pressure/cpu},
 * the share of the last 10 s in which some runnable thread waited for a CPU; saturated at {@value #PRESSURE_PERCENT}
 * % or more); elsewhere the 1-minute load average per processor (saturated at {@value #LOAD_PER_CPU} or more). One
 * reading serves every timeout of the next {@value #REUSE_MILLIS} ms, so a storm of timeouts reads the file rarely.
 */
@FunctionalInterface
interface ClientLoad {

    double PRESSURE_PERCENT = 50.0;
    double LOAD_PER_CPU = 1.5;
    long REUSE_MILLIS = 100;

    /** Never saturated: for tests, and for a client that does not want to be asked. */
    ClientLoad IDLE = nowNanos -> false;

    /** @param nowNanos the caller's clock, to tell whether the last reading is fresh */
    boolean saturated(long nowNanos);

    /** The machine's, read as described above. */
    static ClientLoad system() {
        return new ClientLoad() {
            private final Path pressure = Path.of("/proc/pressure/cpu");
            private volatile long readAt = Long.MIN_VALUE;
            private volatile boolean saturated;

            @Override
            public boolean saturated(long now) {
                if (readAt == Long.MIN_VALUE || now - readAt > REUSE_MILLIS * 1_000_000) {
                    saturated = read();
                    readAt = now;
                }
                return saturated;
            }

            private boolean read() {
                try {
                    List<String> lines = Files.readAllLines(pressure);
                    for (String field : lines.get(0).split(" ")) {
                        if (field.startsWith("avg10=")) {
                            return Double.parseDouble(field.substring("avg10=".length())) >= PRESSURE_PERCENT;
                        }
                    }
                } catch (IOException | RuntimeException noPressureStall) {
                    // not Linux, or a kernel without PSI: the load average below
                }
                double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                return load >= LOAD_PER_CPU * Runtime.getRuntime().availableProcessors();
            }
        };
    }
}
