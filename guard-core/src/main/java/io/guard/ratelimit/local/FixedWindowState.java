package io.guard.ratelimit.local;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

/** {@code fixed_window.lua} in memory: the start of the current aligned window and the permits taken in it. */
final class FixedWindowState implements LimitState {

    private long start = Long.MIN_VALUE;
    private long count;
    private long expiresAt;

    @Override
    public Decision decide(RateLimitPolicy policy, long now, long permits, boolean spend) {
        long interval = Micros.of(policy.interval());
        long windowStart = now - Math.floorMod(now, interval);
        long windowEnd = windowStart + interval;
        long taken = windowStart == start ? count : 0;
        boolean allowed = taken + permits <= policy.rate();
        long retry = 0;
        if (allowed && spend) {
            taken += permits;
            start = windowStart;
            count = taken;
            expiresAt = windowEnd;
        } else if (!allowed) {
            retry = windowEnd - now;
        }
        long reset = taken > 0 ? windowEnd - now : 0;
        return Micros.decision(allowed, Math.max(0, policy.rate() - taken), retry, reset, policy.rate());
    }

    @Override
    public Runnable mark() {
        long s = start;
        long c = count;
        long e = expiresAt;
        return () -> {
            start = s;
            count = c;
            expiresAt = e;
        };
    }

    @Override
    public long expiresAtMicros() {
        return expiresAt;
    }
}
