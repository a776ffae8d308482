package io.guard.spring.actuate;

import io.guard.ratelimit.Quota;

import java.time.Duration;

/**
 * What the {@code guard} endpoint shows for one key's quota. The key is echoed to the operator who sent it, and
 * goes nowhere else. Durations are milliseconds, rounded up so that a wait is never shown as 0.
 *
 * @param name         the rate limiter
 * @param key          the resolved key asked about
 * @param limit        permits per interval (the policy's rate)
 * @param remaining    permits available now
 * @param retryAfterMs time until one permit is available; 0 when {@code remaining} is at least 1
 * @param resetAfterMs time until the quota is whole again; 0 when nothing is in use
 * @param debt         permits charged beyond the quota by costs known after their calls ({@code @RateLimit(cost)});
 *                     while positive, {@code retryAfterMs} is when the refill has paid it back; 0 otherwise
 */
public record QuotaDescriptor(String name, String key, long limit, long remaining, long retryAfterMs,
                              long resetAfterMs, long debt) {

    static QuotaDescriptor of(String name, String key, Quota quota) {
        return new QuotaDescriptor(name, key, quota.limit(), quota.remaining(), ceilMillis(quota.retryAfter()),
                ceilMillis(quota.resetAfter()), quota.debt());
    }

    private static long ceilMillis(Duration duration) {
        long millis = duration.toMillis();
        return duration.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
