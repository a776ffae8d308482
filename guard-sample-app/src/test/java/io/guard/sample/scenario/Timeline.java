package io.guard.sample.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What happened in each 100 ms slice of the scenario. Requests are filed under the slice in which they were
 * sent (their latency is what a caller sending at that moment experienced), downstream calls under the slice in
 * which they started, and the breaker state is the one in force at the end of the slice, from the exact times of
 * its transitions (no sampling thread that a busy machine could delay).
 */
final class Timeline {

    static final Duration SLICE = Duration.ofMillis(100);

    private final long startNanos;
    private final int slices;
    private final AtomicLongArray sent;
    private final AtomicLongArray answered;
    private final AtomicLongArray degraded;
    private final AtomicLongArray failed;
    private final AtomicLongArray downstreamCalls;
    private final List<List<Long>> latenciesMicros;

    Timeline(long startNanos, Duration length) {
        this.startNanos = startNanos;
        this.slices = Math.toIntExact(length.dividedBy(SLICE)) + 1;
        this.sent = new AtomicLongArray(slices);
        this.answered = new AtomicLongArray(slices);
        this.degraded = new AtomicLongArray(slices);
        this.failed = new AtomicLongArray(slices);
        this.downstreamCalls = new AtomicLongArray(slices);
        this.latenciesMicros = new ArrayList<>(slices);
        for (int i = 0; i < slices; i++) {
            latenciesMicros.add(new ArrayList<>());
        }
    }

    /** The slice a nano time falls in, or -1 outside the scenario. */
    int slice(long nanos) {
        if (nanos < startNanos) {
            return -1;
        }
        long index = (nanos - startNanos) / SLICE.toNanos();
        return index >= slices ? -1 : (int) index;
    }

    long startNanos() {
        return startNanos;
    }

    void sent(int slice) {
        sent.incrementAndGet(slice);
    }

    /** A 200 answer; {@code fallback} when the body said {@code "degraded": true}. */
    void answered(int slice, long latencyNanos, boolean fallback) {
        (fallback ? degraded : answered).incrementAndGet(slice);
        latency(slice, latencyNanos);
    }

    /** Anything but a 200, or no answer at all. */
    void failed(int slice, long latencyNanos) {
        failed.incrementAndGet(slice);
        latency(slice, latencyNanos);
    }

    /** A call that reached the downstream, filed under the slice in which it started. */
    void downstreamCall(int slice) {
        downstreamCalls.incrementAndGet(slice);
    }

    private void latency(int slice, long nanos) {
        List<Long> list = latenciesMicros.get(slice);
        synchronized (list) {
            list.add(nanos / 1_000);
        }
    }

    /** The slices as rows, once the run is over; the breaker starts CLOSED and moves as {@code transitions} say. */
    List<Row> rows(List<Transition> transitions) {
        List<Row> rows = new ArrayList<>(slices);
        String state = "CLOSED";
        int next = 0;
        for (int i = 0; i < slices; i++) {
            long sliceEndMs = (i + 1) * SLICE.toMillis();
            while (next < transitions.size() && transitions.get(next).atMs() < sliceEndMs) {
                state = transitions.get(next++).to();
            }
            long[] micros;
            List<Long> list = latenciesMicros.get(i);
            synchronized (list) {
                micros = list.stream().mapToLong(Long::longValue).sorted().toArray();
            }
            rows.add(new Row(i * SLICE.toMillis(), state, sent.get(i),
                    downstreamCalls.get(i), answered.get(i), degraded.get(i), failed.get(i),
                    percentile(micros, 0.50), percentile(micros, 0.99)));
        }
        return rows;
    }

    /** Nearest-rank percentile in milliseconds; NaN for an empty slice. */
    static double percentile(long[] sortedMicros, double p) {
        if (sortedMicros.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sortedMicros.length);
        return sortedMicros[Math.max(0, rank - 1)] / 1000.0;
    }

    /**
     * One slice.
     *
     * @param startMs         slice start, ms since the scenario began
     * @param state           breaker state at the end of the slice
     * @param sent            requests sent in the slice
     * @param downstreamCalls calls that reached the simulated downstream during the slice
     * @param answered        200 answers from the downstream (requests sent in the slice)
     * @param fallbacks       200 answers from the fallback ({@code degraded: true})
     * @param failed          other statuses or no answer
     * @param p50Ms           median caller latency of requests sent in the slice
     * @param p99Ms           99th percentile caller latency
     */
    record Row(long startMs, String state, long sent, long downstreamCalls, long answered, long fallbacks,
               long failed, double p50Ms, double p99Ms) {

        static final String CSV_HEADER =
                "t_ms,state,sent,downstream_calls,downstream_answers,fallback_answers,failed,p50_ms,p99_ms";

        String csv() {
            return String.join(",", Long.toString(startMs), state, Long.toString(sent),
                    Long.toString(downstreamCalls), Long.toString(answered), Long.toString(fallbacks),
                    Long.toString(failed), ms(p50Ms), ms(p99Ms));
        }

        private static String ms(double value) {
            return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.1f", value);
        }
    }
}
