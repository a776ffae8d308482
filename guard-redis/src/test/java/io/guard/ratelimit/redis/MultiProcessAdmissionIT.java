package io.guard.ratelimit.redis;

import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three JVMs x 8 threads on one Redis: first all on one key, then spread over three keys, for each algorithm. Each
 * process logs its admissions with the Redis {@code TIME} the script decided at; the merged log, replayed on that
 * single timeline, must never break the policy. Thread contention inside one JVM is covered by
 * {@link RedisConcurrencyIT}; this adds separate connections, pools and clocks.
 */
@RedisTest
class MultiProcessAdmissionIT {

    private static final int PROCESSES = 3;
    private static final int THREADS = 8;
    private static final long RATE = 20;
    private static final long INTERVAL_MILLIS = 100;
    private static final long INTERVAL_MICROS = TimeUnit.MILLISECONDS.toMicros(INTERVAL_MILLIS);
    private static final long PHASE_MILLIS = 700;
    private static final String[] PHASES = {"SLIDING_LOG/one", "TOKEN_BUCKET/one", "FIXED_WINDOW/one",
            "SLIDING_LOG/a,b,c", "TOKEN_BUCKET/a,b,c", "FIXED_WINDOW/a,b,c"};

    /** One admission: which process granted it, at which server time. */
    private record Admission(int process, long micros) {
    }

    @Test
    void theMergedAdmissionLogOfThreeProcessesNeverBreaksThePolicy(RedisEndpoint redis) throws Exception {
        Map<String, List<Admission>> byLimit = run(redis);

        assertThat(byLimit.keySet()).containsExactlyInAnyOrder("SLIDING_LOG one", "TOKEN_BUCKET one",
                "FIXED_WINDOW one", "SLIDING_LOG a", "SLIDING_LOG b", "SLIDING_LOG c", "TOKEN_BUCKET a",
                "TOKEN_BUCKET b", "TOKEN_BUCKET c", "FIXED_WINDOW a", "FIXED_WINDOW b", "FIXED_WINDOW c");
        for (Map.Entry<String, List<Admission>> limit : new TreeMap<>(byLimit).entrySet()) {
            List<Admission> log = limit.getValue();
            log.sort((x, y) -> Long.compare(x.micros(), y.micros()));
            long[] times = log.stream().mapToLong(Admission::micros).toArray();
            long processes = log.stream().mapToInt(Admission::process).distinct().count();
            String algorithm = limit.getKey().split(" ")[0];
            long worst = switch (algorithm) {
                case "SLIDING_LOG" -> maxInAnyWindow(times);
                case "TOKEN_BUCKET" -> worstGcraExcess(times);
                default -> maxPerAlignedWindow(times);
            };
            System.out.printf("multi-process %-16s admissions=%d processes=%d worst=%d%n", limit.getKey(),
                    times.length, processes, worst);
            assertThat(processes).as("%s: every process got permits", limit.getKey()).isEqualTo(PROCESSES);
            assertThat((long) times.length).as("%s: the limit was saturated for several intervals", limit.getKey())
                    .isGreaterThanOrEqualTo(3 * RATE);
            switch (algorithm) {
                case "SLIDING_LOG" -> assertThat(worst).as("%s: most admissions in any %d ms window",
                        limit.getKey(), INTERVAL_MILLIS).isLessThanOrEqualTo(RATE);
                case "TOKEN_BUCKET" -> assertThat(worst).as("%s: admissions beyond burst + elapsed * rate / interval",
                        limit.getKey()).isLessThanOrEqualTo(0);
                default -> assertThat(worst).as("%s: most admissions in one aligned window", limit.getKey())
                        .isLessThanOrEqualTo(RATE);
            }
        }
    }

    /** The most admissions in any half-open window [t, t + interval). */
    static long maxInAnyWindow(long[] times) {
        long max = 0;
        int first = 0;
        for (int last = 0; last < times.length; last++) {
            while (times[last] - times[first] >= INTERVAL_MICROS) {
                first++;
            }
            max = Math.max(max, last - first + 1);
        }
        return max;
    }

    /** max over i <= j of (j - i + 1) - (burst + (t_j - t_i) / T), rounded up; at most 0 when GCRA holds. */
    static long worstGcraExcess(long[] times) {
        double emission = (double) INTERVAL_MICROS / RATE;
        double worst = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < times.length; i++) {
            for (int j = i; j < times.length; j++) {
                worst = Math.max(worst, (j - i + 1) - (RATE + (times[j] - times[i]) / emission) - 1e-6);
            }
        }
        return (long) Math.ceil(worst);
    }

    static long maxPerAlignedWindow(long[] times) {
        Map<Long, Long> counts = new HashMap<>();
        for (long t : times) {
            counts.merge(t / INTERVAL_MICROS, 1L, Long::sum);
        }
        return counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    private Map<String, List<Admission>> run(RedisEndpoint redis) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> processes = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        Path logs = Files.createTempDirectory("guard-multi-process-");
        try {
            for (int p = 0; p < PROCESSES; p++) {
                List<String> command = new ArrayList<>(List.of(java, "-Xmx96m", "-XX:TieredStopAtLevel=1",
                        "-cp", System.getProperty("java.class.path"), AdmissionWorker.class.getName(),
                        redis.url(), redis.keyPrefix(), Integer.toString(THREADS), Long.toString(PHASE_MILLIS),
                        Long.toString(RATE), Long.toString(INTERVAL_MILLIS)));
                command.addAll(List.of(PHASES));
                File stderr = logs.resolve("worker-" + p + ".err").toFile();
                Process process = new ProcessBuilder(command).redirectError(stderr).start();
                processes.add(process);
                outputs.add(new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8)));
            }
            for (int p = 0; p < PROCESSES; p++) {
                assertThat(nextProtocolLine(outputs.get(p))).as("worker %d started (stderr in %s)", p, logs)
                        .isEqualTo("READY");
            }
            for (Process process : processes) {
                Writer go = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
                go.write("GO\n");
                go.flush();
            }
            Map<String, List<Admission>> byLimit = new HashMap<>();
            for (int p = 0; p < PROCESSES; p++) {
                readAdmissions(p, outputs.get(p), byLimit, logs);
                assertThat(processes.get(p).waitFor(30, TimeUnit.SECONDS)).as("worker %d exits", p).isTrue();
                assertThat(processes.get(p).exitValue()).as("worker %d exit code (stderr in %s)", p, logs)
                        .isZero();
            }
            return byLimit;
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
    }

    /** The next line of the worker's protocol, skipping what its logging printed. */
    private static String nextProtocolLine(BufferedReader output) throws IOException {
        String line;
        do {
            line = output.readLine();
        } while (line != null && !line.equals("READY") && !line.equals("DONE") && !line.startsWith("ADMIT "));
        return line;
    }

    private static void readAdmissions(int process, BufferedReader output, Map<String, List<Admission>> byLimit,
                                       Path logs) throws IOException {
        String line;
        while ((line = nextProtocolLine(output)) != null && !line.equals("DONE")) {
            String[] parts = line.split(" ");
            byLimit.computeIfAbsent(parts[1] + " " + parts[2], k -> new ArrayList<>())
                    .add(new Admission(process, Long.parseLong(parts[3])));
        }
        assertThat(line).as("worker %d finished its log (stderr in %s)", process, logs).isEqualTo("DONE");
    }
}
