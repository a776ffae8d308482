package io.guard.ratelimit;

import io.guard.event.EventBuffer;

import java.util.concurrent.atomic.LongAdder;

/** A policy registered in a {@link RateLimiterRegistry}, with its counters and events; replacing the policy keeps them. */
final class RegisteredLimit {

    private volatile RateLimitPolicy policy;
    final EventBuffer events;
    final LongAdder permitted = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder errors = new LongAdder();

    RegisteredLimit(RateLimitPolicy policy, EventBuffer events) {
        this.policy = policy;
        this.events = events;
    }

    RateLimitPolicy policy() {
        return policy;
    }

    RegisteredLimit withPolicy(RateLimitPolicy replacement) {
        this.policy = replacement;
        return this;
    }
}
