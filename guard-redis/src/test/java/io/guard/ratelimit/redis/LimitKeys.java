package io.guard.ratelimit.redis;

import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;

import java.util.List;

/**
 * The Redis keys {@link RedisRateLimiter} writes for one limit, spelled out from the documented layout
 * ({@code <prefix>{<limiter>:<key>}:<suffix>[:<instance>]}), so tests can inspect them; a test that finds no such key
 * in Redis fails, so this cannot drift from the limiter unnoticed.
 */
final class LimitKeys {

    private LimitKeys() {
    }

    static List<String> of(String prefix, String instanceId, RateLimitPolicy policy, String key) {
        String base = prefix + RateLimitKeys.hashTag(policy.name(), key) + ":";
        String instance = policy.scope() == Scope.PER_INSTANCE ? ":" + RateLimitKeys.encode(instanceId) : "";
        return switch (policy.algorithm()) {
            case SLIDING_LOG -> List.of(base + "log" + instance, base + "state" + instance);
            case TOKEN_BUCKET -> List.of(base + "tat" + instance);
            case FIXED_WINDOW -> List.of(base + "window" + instance);
        };
    }
}
