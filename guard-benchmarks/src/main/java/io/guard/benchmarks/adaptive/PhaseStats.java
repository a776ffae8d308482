package io.guard.benchmarks.adaptive;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/** What the callers of one phase of {@link AdaptiveLoad} saw, by the phase their request arrived in. */
final class PhaseStats {

    private final String phase;
    private final int seconds;
    private final ConcurrentLinkedQueue<Long> answeredMicros = new ConcurrentLinkedQueue<>();
    private final AtomicLong offered = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong good = new AtomicLong();
    private volatile int lowestLimit = Integer.MAX_VALUE;
    private volatile int limitAtEnd = -1;

    PhaseStats(String phase, int seconds) {
        this.phase = phase;
        this.seconds = seconds;
    }

    void arrived() {
        offered.incrementAndGet();
    }

    /** A 200 after {@code micros} (from its arrival); good when within the SLO. */
    void answered(long micros, long sloMicros) {
        answeredMicros.add(micros);
        if (micros <= sloMicros) {
            good.incrementAndGet();
        }
    }

    /** A 503 from the bulkhead: answered at once, not goodput. */
    void refused() {
        refused.incrementAndGet();
    }

    /** The bulkhead's limit as the phase went; -1 when there is no bulkhead. */
    void limit(int limit) {
        if (limit >= 0) {
            lowestLimit = Math.min(lowestLimit, limit);
            limitAtEnd = limit;
        }
    }

    String row(String variant) {
        long[] sorted = answeredMicros.stream().mapToLong(Long::longValue).sorted().toArray();
        String limits = limitAtEnd < 0 ? "–" : lowestLimit + " / " + limitAtEnd;
        return String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.0f | %.0f | %s | %s | %s |", variant, phase,
                offered.get() / (double) seconds, sorted.length / (double) seconds, good.get() / (double) seconds,
                refused.get() / (double) seconds, ms(percentile(sorted, 0.50)), ms(percentile(sorted, 0.99)), limits);
    }

    private static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return -1;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
    }

    private static String ms(long micros) {
        return micros < 0 ? "–" : String.format(Locale.ROOT, "%.0f", micros / 1000.0);
    }

    @Override
    public String toString() {
        return phase + " " + Arrays.toString(new long[] {offered.get(), good.get(), refused.get()});
    }
}
