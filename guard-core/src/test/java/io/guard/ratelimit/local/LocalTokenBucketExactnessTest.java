package io.guard.ratelimit.local;

import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.TokenBucketExactnessContract;

import java.time.Clock;

class LocalTokenBucketExactnessTest extends TokenBucketExactnessContract {

    @Override
    protected RateLimiter create(Clock clock) {
        return new LocalRateLimiter(clock);
    }

    @Override
    protected int cases() {
        return 400;
    }

    @Override
    protected int steps() {
        return 60;
    }
}
