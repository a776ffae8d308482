package io.guard.spring.web;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Collection;

/**
 * Writes the header fields of draft-ietf-httpapi-ratelimit-headers-11 and {@code Retry-After}:
 * {@code RateLimit-Policy: "order-submit";q=5;w=60} and {@code RateLimit: "order-submit";r=0;t=42}, one list member
 * per limit the request passed through. Seconds are whole and rounded up, so a client that waits as told is never
 * early.
 *
 * <p>The fields claim only what is known. A decision that counted nothing ({@link Decision#counted()} false: a
 * {@code FAIL_OPEN} answer while Redis cannot decide) has no {@code RateLimit} member, as nobody knows what is left;
 * its policy is still listed. A {@code TOKEN_BUCKET} whose burst is above its rate advertises the bucket:
 * {@code q} is the burst and {@code w} the time the bucket takes to fill from empty ({@code burst x interval / rate}),
 * so that {@code r} (never above the burst) and {@code t} (the time until the bucket is full, never above that) stay
 * within the policy, and a client that spends {@code q} per {@code w} is never refused.
 *
 * <p>Public for guard-spring-cloud-gateway, which writes the same fields on a gateway's answers; not an API for
 * applications.
 */
public final class RateLimitHeaders {

    /** The quota policies: name, quota ({@code q}) and window in seconds ({@code w}). */
    public static final String POLICY = "RateLimit-Policy";
    /** The current state: name, remaining ({@code r}) and seconds until reset ({@code t}). */
    public static final String RATE_LIMIT = "RateLimit";
    public static final String RETRY_AFTER = "Retry-After";

    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000);

    private RateLimitHeaders() {
    }

    /** One limit's decision within a request. */
    public record Entry(RateLimitPolicy policy, Decision decision) {
    }

    /** Written into one builder: this runs on every allowed request. */
    public static String policyField(Collection<Entry> entries) {
        StringBuilder field = new StringBuilder(32 * entries.size());
        for (Entry e : entries) {
            RateLimitPolicy policy = e.policy();
            boolean bucket = advertisesBucket(policy);
            quoted(separated(field), policy.name()).append(";q=").append(bucket ? policy.burst() : policy.rate())
                    .append(";w=").append(bucket ? fillSeconds(policy) : secondsRoundedUp(policy.interval()));
        }
        return field.toString();
    }

    /**
     * Written into one builder: this runs on every allowed request. Decisions that counted nothing are left out;
     * empty when every decision is such, and then the field is not sent.
     */
    public static String rateLimitField(Collection<Entry> entries) {
        StringBuilder field = new StringBuilder(32 * entries.size());
        for (Entry e : entries) {
            if (e.decision().counted()) {
                quoted(separated(field), e.policy().name()).append(";r=").append(e.decision().remaining())
                        .append(";t=").append(resetSeconds(e));
            }
        }
        return field.toString();
    }

    /** A bucket that holds more than its rate: its burst and fill time describe it, its rate and interval do not. */
    private static boolean advertisesBucket(RateLimitPolicy policy) {
        return policy.algorithm() == Algorithm.TOKEN_BUCKET && policy.burst() > policy.rate();
    }

    /**
     * Whole seconds, rounded up, that an empty bucket takes to fill: {@code burst x interval / rate}. Exact for every
     * policy (the product may pass 2^63 nanoseconds before the division); only buckets with a burst above their rate
     * get here.
     */
    private static long fillSeconds(RateLimitPolicy policy) {
        BigInteger[] seconds = BigInteger.valueOf(policy.interval().toNanos())
                .multiply(BigInteger.valueOf(policy.burst()))
                .divideAndRemainder(BigInteger.valueOf(policy.rate()).multiply(NANOS_PER_SECOND));
        return seconds[0].longValueExact() + (seconds[1].signum() > 0 ? 1 : 0);
    }

    private static StringBuilder separated(StringBuilder field) {
        return field.isEmpty() ? field : field.append(", ");
    }

    /** {@code Retry-After} for a refusal: whole seconds, rounded up, never 0 (0 would invite an instant retry). */
    public static long retryAfterSeconds(Duration wait) {
        return Math.max(1, secondsRoundedUp(wait));
    }

    /** Seconds until the quota resets; on a refusal never sooner than the time the client has to wait. */
    private static long resetSeconds(Entry e) {
        Duration reset = e.decision().resetAfter();
        if (!e.decision().allowed() && e.decision().retryAfter().compareTo(reset) > 0) {
            reset = e.decision().retryAfter();
        }
        return secondsRoundedUp(reset);
    }

    static long secondsRoundedUp(Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            return 0;
        }
        long seconds = duration.getSeconds();
        return duration.getNano() > 0 ? seconds + 1 : seconds;
    }

    /** An sf-string: printable ASCII only, with {@code "} and {@code \} escaped. */
    static String quoted(String name) {
        return quoted(new StringBuilder(name.length() + 2), name).toString();
    }

    private static StringBuilder quoted(StringBuilder out, String name) {
        out.append('"');
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else {
                out.append(c >= 0x20 && c < 0x7f ? c : '?');
            }
        }
        return out.append('"');
    }
}
