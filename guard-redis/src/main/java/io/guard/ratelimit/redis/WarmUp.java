package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Failures;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterBackendException;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The steps of {@link RedisRateLimiter#warmUp()}, one after the other, each failure naming the step it stopped at.
 */
final class WarmUp {

    private WarmUp() {
    }

    /**
     * Connects, loads {@code scripts}, subscribes to resets, then runs {@code inspect} on a throwaway limit
     * named {@value RedisRateLimiter#WARM_UP} for every algorithm at once.
     */
    static CompletionStage<Void> run(ScriptConnection connection, List<LuaScript> scripts, ResetListener resets,
                                     Function<RateLimitPolicy, CompletionStage<Quota>> inspect) {
        return step("connect", connection.connect())
                .thenCompose(connected -> step("load the scripts", connection.loadOnce(scripts)))
                .thenCompose(loaded -> step("subscribe to resets", resets.subscription().subscribed()))
                .thenCompose(subscribed -> step("run the decision script", CompletableFuture.allOf(
                        Arrays.stream(Algorithm.values())
                                .map(algorithm -> inspect.apply(RateLimitPolicy.of(RedisRateLimiter.WARM_UP,
                                        algorithm, 1, Duration.ofSeconds(1))).toCompletableFuture())
                                .toArray(CompletableFuture[]::new))));
    }

    private static CompletionStage<Void> step(String doing, CompletionStage<?> stage) {
        return stage.handle((done, error) -> {
            if (error != null) {
                Throwable cause = Failures.unwrap(error);
                throw new RateLimiterBackendException("warm-up: Redis could not " + doing + " ("
                        + cause.getClass().getSimpleName() + ")", cause);
            }
            return null;
        });
    }
}
