package io.guard.ratelimit.redis;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A script's answer: the decision, plus the instant (microseconds, on the clock the script used) at which it was
 * taken, which tests use to check admissions against the policy on the server's own timeline.
 */
record ScriptReply(Decision decision, long nowMicros) {

    /**
     * Reads one limit's row of a {@code decide.lua} reply: {@code allowed, remaining, retryAfter, resetAfter, now},
     * or {@code -1} and the error when this limit failed in the script (other entries of its batch are unaffected).
     *
     * @throws RateLimiterBackendException for a failed limit: Redis could not decide it
     */
    static ScriptReply of(RateLimitPolicy policy, List<Object> row) {
        long allowed = DecideScript.number(row.get(0));
        if (allowed == -1) {
            throw new RateLimiterBackendException("rate limiter '" + policy.name()
                    + "': Redis could not decide (script error)", new IllegalStateException(String.valueOf(row.get(1))));
        }
        Decision decision = new Decision(allowed == 1, DecideScript.number(row.get(1)),
                Duration.of(DecideScript.number(row.get(2)), ChronoUnit.MICROS),
                Duration.of(DecideScript.number(row.get(3)), ChronoUnit.MICROS), policy.rate());
        return new ScriptReply(decision, DecideScript.number(row.get(4)));
    }
}
