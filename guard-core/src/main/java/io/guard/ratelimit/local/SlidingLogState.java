package io.guard.ratelimit.local;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.util.ArrayDeque;

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
    public Decision decide(RateLimitPolicy policy, long now, long permits, boolean spend) {
        long interval = Micros.of(policy.interval());
        long cutoff = now - interval;
        if (spend) {
            while (!log.isEmpty() && log.peekFirst().atMicros() <= cutoff) {
                used -= log.pollFirst().permits();
            }
        }
        // Without spending, expired records stay in the log and are left out here and in the walk below.
        long inUse = used;
        for (Entry entry : log) {
            if (entry.atMicros() > cutoff) {
                break;
            }
            inUse -= entry.permits();
        }
        boolean allowed = inUse + permits <= policy.rate();
        long retry = 0;
        if (allowed && spend) {
            // A clock that stepped back must not put a record before newer ones: keep the log ordered (and strict).
            long at = log.isEmpty() ? now : Math.max(now, log.peekLast().atMicros());
            log.addLast(new Entry(at, permits));
            used += permits;
            inUse = used;
        } else if (!allowed) {
            long need = inUse + permits - policy.rate();
            long freed = 0;
            for (Entry entry : log) {
                if (entry.atMicros() <= cutoff) {
                    continue;
                }
                freed += entry.permits();
                if (freed >= need) {
                    retry = entry.atMicros() + interval - now;
                    break;
                }
            }
        }
        long reset = inUse > 0 ? Math.max(0, log.peekLast().atMicros() + interval - now) : 0;
        if (spend) {
            expiresAt = now + reset;
        }
        return Micros.decision(allowed, Math.max(0, policy.rate() - inUse), retry, reset, policy.rate());
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
