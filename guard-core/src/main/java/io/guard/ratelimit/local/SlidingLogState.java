package io.guard.ratelimit.local;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * {@code sliding_log.lua} in memory: a time-ordered log of acquisitions and the permits they hold. Keeps the permits
 * in use (not those available), so a changed rate applies to what is already taken.
 */
final class SlidingLogState implements LimitState {

    private record Entry(long atMicros, long permits) {
    }

    private final ArrayDeque<Entry> log = new ArrayDeque<>();
    private long used;
    private long expiresAt;

    @Override
    public Decision decide(RateLimitPolicy policy, long now, long permits) {
        long interval = Micros.of(policy.interval());
        long cutoff = now - interval;
        while (!log.isEmpty() && log.peekFirst().atMicros() <= cutoff) {
            used -= log.pollFirst().permits();
        }
        boolean allowed = used + permits <= policy.rate();
        long retry = 0;
        if (allowed) {
            // A clock that stepped back must not put a record before newer ones: keep the log ordered (and strict).
            long at = log.isEmpty() ? now : Math.max(now, log.peekLast().atMicros());
            log.addLast(new Entry(at, permits));
            used += permits;
        } else {
            long need = used + permits - policy.rate();
            long freed = 0;
            for (Iterator<Entry> it = log.iterator(); it.hasNext(); ) {
                Entry entry = it.next();
                freed += entry.permits();
                if (freed >= need) {
                    retry = entry.atMicros() + interval - now;
                    break;
                }
            }
        }
        long reset = used > 0 ? Math.max(0, log.peekLast().atMicros() + interval - now) : 0;
        expiresAt = now + reset;
        return Micros.decision(allowed, Math.max(0, policy.rate() - used), retry, reset, policy.rate());
    }

    /** Records are only ever added at the end: undoing drops those after the newest record of now. */
    @Override
    public Runnable mark() {
        Entry newest = log.peekLast();
        long e = expiresAt;
        return () -> {
            while (!log.isEmpty() && log.peekLast() != newest) {
                used -= log.pollLast().permits();
            }
            expiresAt = e;
        };
    }

    @Override
    public long expiresAtMicros() {
        return expiresAt;
    }
}
