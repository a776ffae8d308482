package io.guard.breaker.window;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Keeps every call and recounts on demand: the obviously-correct model the real windows are checked against. */
final class NaiveWindow {

    record Call(long second, boolean failed, boolean slow, long nanos) {
    }

    private final List<Call> calls = new ArrayList<>();

    void add(Call call) {
        calls.add(call);
    }

    /** The last {@code size} calls. */
    Snapshot lastCalls(int size, int minimumNumberOfCalls) {
        return count(calls.subList(Math.max(0, calls.size() - size), calls.size()), minimumNumberOfCalls);
    }

    /** The calls of the seconds in (now - size, now]. */
    Snapshot lastSeconds(long nowSecond, int size, int minimumNumberOfCalls) {
        return count(calls.stream().filter(c -> c.second() > nowSecond - size && c.second() <= nowSecond).toList(),
                minimumNumberOfCalls);
    }

    private static Snapshot count(List<Call> window, int minimumNumberOfCalls) {
        int n = window.size();
        int failed = (int) window.stream().filter(Call::failed).count();
        int slow = (int) window.stream().filter(Call::slow).count();
        int slowFailed = (int) window.stream().filter(c -> c.slow() && c.failed()).count();
        long nanos = window.stream().mapToLong(Call::nanos).sum();
        boolean enough = n > 0 && n >= minimumNumberOfCalls;
        return new Snapshot(n, failed, slow, slowFailed, enough ? failed * 100f / n : -1f,
                enough ? slow * 100f / n : -1f, n == 0 ? Duration.ZERO : Duration.ofNanos(nanos / n));
    }
}
