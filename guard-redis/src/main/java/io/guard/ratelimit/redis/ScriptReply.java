package io.guard.ratelimit.redis;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Supplier;

/**
 * A script's answer: the decision, plus the instant (microseconds, on the clock the script used) at which it was
 * taken, which tests use to check admissions against the policy on the server's own timeline, and the key's balance
 * in permits, which a TOKEN_BUCKET in debt answers negative (the decision's {@code remaining} is then 0).
 */
record ScriptReply(Decision decision, long nowMicros, long balance) {

    /** A reply whose balance is what remains (a refusal remembered in process). */
    ScriptReply(Decision decision, long nowMicros) {
        this(decision, nowMicros, decision.remaining());
    }

    /**
     * Reads one limit's row of a {@code decide.lua} reply: {@code allowed, remaining, retryAfter, resetAfter, now},
     * or {@code -1} and the error when this limit failed in the script (other entries of its batch are unaffected);
     * the caller has read the first, {@code allowed}.
     *
     * @throws RateLimiterBackendException for a failed limit: Redis could not decide it
     */
    private static ScriptReply of(RateLimitPolicy policy, List<Object> values, int from, long allowed) {
        if (allowed == -1) {
            throw new RateLimiterBackendException("rate limiter '" + policy.name()
                    + "': Redis could not decide (script error)",
                    new IllegalStateException(String.valueOf(values.get(from + 1))));
        }
        long[] row = DecideScript.numbers(values, from + 1, DecideScript.ROW - 1);
        Decision decision = new Decision(allowed == 1, Math.max(0, row[0]), Duration.of(row[1], ChronoUnit.MICROS),
                Duration.of(row[2], ChronoUnit.MICROS), policy.rate());
        return new ScriptReply(decision, row[3], row[0]);
    }

    /** The quota this reply to a peek or a charge shows, with the debt a negative balance is. */
    Quota quota() {
        return Quota.of(decision, balance);
    }

    /** The reply to an entry of one limit: {@code 1}, then the limit's row (see {@code decide.lua}). */
    static ScriptReply ofOne(RateLimitPolicy policy, List<Object> values) {
        // The count of limits and the allowed flag are numbers in every reply; the values after a -1 flag are not.
        long[] head = values == null || values.size() != 1 + DecideScript.ROW ? null
                : DecideScript.numbers(values, 0, 2);
        if (head == null || head[0] != 1) {
            throw new RateLimiterBackendException("rate limiter '" + policy.name() + "': unexpected script reply "
                    + values, null);
        }
        return of(policy, values, 1, head[1]);
    }

    /**
     * Checks the reply to an entry of {@code limits} limits, named by {@code names}: a leading value, then one row
     * per limit, read with {@link #ofRow}.
     */
    static void checkGroup(List<Object> values, int limits, Supplier<String> names) {
        if (values == null || values.size() != 1 + DecideScript.ROW * limits) {
            throw new RateLimiterBackendException("rate limiter '" + names.get() + "': unexpected script reply "
                    + values, null);
        }
    }

    /** Row {@code i} of a group's reply that {@link #checkGroup} accepted. */
    static ScriptReply ofRow(RateLimitPolicy policy, List<Object> values, int i) {
        int from = 1 + DecideScript.ROW * i;
        return of(policy, values, from, DecideScript.number(values.get(from)));
    }
}
