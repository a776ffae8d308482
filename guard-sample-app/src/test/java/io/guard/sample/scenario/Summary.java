package io.guard.sample.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The numbers seed 004's account can be checked against, computed from a finished run: when the breaker opened
 * after the slowdown, how much traffic reached the downstream while it was OPEN, and how long recovery took.
 */
final class Summary {

    private Summary() {
    }

    static List<String> lines(List<Timeline.Row> rows, List<Transition> transitions, long slowdownAtMs,
                              long recoveryAtMs, long endMs, long shed) {
        List<String> lines = new ArrayList<>();
        lines.add("transitions (ms since start): " + transitions);
        firstAfter(transitions, slowdownAtMs, "OPEN").ifPresent(open -> lines.add(String.format(Locale.ROOT,
                "slowdown at %d ms -> OPEN at %d ms (%.1f s later)", slowdownAtMs, open.atMs(),
                (open.atMs() - slowdownAtMs) / 1000.0)));
        long reopenings = transitions.stream()
                .filter(t -> t.atMs() > slowdownAtMs && t.atMs() < recoveryAtMs)
                .filter(t -> t.from().equals("HALF_OPEN") && t.to().equals("OPEN")).count();
        lines.add("HALF_OPEN -> OPEN during the slowdown (failed probes): " + reopenings);
        Optional<Transition> halfOpen = firstAfter(transitions, recoveryAtMs, "HALF_OPEN");
        Optional<Transition> closed = firstAfter(transitions, recoveryAtMs, "CLOSED");
        halfOpen.ifPresent(t -> lines.add(String.format(Locale.ROOT, "recovery at %d ms -> first HALF_OPEN at %d ms"
                + " (+%.1f s)", recoveryAtMs, t.atMs(), (t.atMs() - recoveryAtMs) / 1000.0)));
        closed.ifPresent(t -> lines.add(String.format(Locale.ROOT, "recovery at %d ms -> CLOSED at %d ms (+%.1f s)",
                recoveryAtMs, t.atMs(), (t.atMs() - recoveryAtMs) / 1000.0)));
        lines.add(rate("downstream calls/s while CLOSED before the slowdown", rows, 0, slowdownAtMs, "CLOSED"));
        lines.add(rate("downstream calls/s while OPEN", rows, 0, endMs, "OPEN"));
        lines.add(rate("downstream calls/s while HALF_OPEN", rows, 0, endMs, "HALF_OPEN"));
        lines.add(phase("normal", rows, 0, slowdownAtMs));
        lines.add(phase("slow downstream", rows, slowdownAtMs, recoveryAtMs));
        lines.add(phase("recovered", rows, recoveryAtMs, endMs));
        lines.add("requests shed by the client's in-flight bound: " + shed);
        return lines;
    }

    private static Optional<Transition> firstAfter(List<Transition> transitions, long fromMs, String to) {
        return transitions.stream().filter(t -> t.atMs() >= fromMs && t.to().equals(to)).findFirst();
    }

    private static String rate(String label, List<Timeline.Row> rows, long fromMs, long toMs, String state) {
        List<Timeline.Row> selected = rows.stream()
                .filter(r -> r.startMs() >= fromMs && r.startMs() < toMs && r.state().equals(state)).toList();
        long calls = selected.stream().mapToLong(Timeline.Row::downstreamCalls).sum();
        double seconds = selected.size() * Timeline.SLICE.toMillis() / 1000.0;
        return String.format(Locale.ROOT, "%s: %.1f (%d calls in %.1f s)", label,
                seconds == 0 ? 0.0 : calls / seconds, calls, seconds);
    }

    private static String phase(String name, List<Timeline.Row> rows, long fromMs, long toMs) {
        List<Timeline.Row> selected = rows.stream().filter(r -> r.startMs() >= fromMs && r.startMs() < toMs).toList();
        long sent = selected.stream().mapToLong(Timeline.Row::sent).sum();
        long answered = selected.stream().mapToLong(Timeline.Row::answered).sum();
        long fallbacks = selected.stream().mapToLong(Timeline.Row::fallbacks).sum();
        long failed = selected.stream().mapToLong(Timeline.Row::failed).sum();
        long downstream = selected.stream().mapToLong(Timeline.Row::downstreamCalls).sum();
        double[] p50 = selected.stream().mapToDouble(Timeline.Row::p50Ms).filter(v -> !Double.isNaN(v)).sorted()
                .toArray();
        double[] p99 = selected.stream().mapToDouble(Timeline.Row::p99Ms).filter(v -> !Double.isNaN(v)).sorted()
                .toArray();
        return String.format(Locale.ROOT, "phase '%s' [%d-%d ms]: sent %d, downstream answers %d, fallbacks %d, "
                        + "failed %d, downstream calls %d, median of slice p50 %.0f ms, max slice p99 %.0f ms",
                name, fromMs, toMs, sent, answered, fallbacks, failed, downstream,
                p50.length == 0 ? Double.NaN : p50[p50.length / 2], p99.length == 0 ? Double.NaN : p99[p99.length - 1]);
    }
}
