package io.guard.spring.reliability;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimitObserver;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitQuotas;
import io.guard.spring.test.AutoConfigs;
import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cost known after the call, on Redis that goes away during the call: the charge fails after the method returned,
 * and the caller still gets the method's value, in about the backend's timeout; the failed charge reaches the
 * registry's observers (the {@code guard.ratelimit.charges{outcome=failed}} meter) and is logged, never thrown.
 */
class CostChargeRedisOutageIT {

    /** The failover's patience with a silent Redis is 4 x 250 ms; the rest is slack for a loaded machine. */
    private static final Duration BOUND = Duration.ofSeconds(5);

    static class Gateway {
        private volatile DedicatedRedis stopDuringCall;

        /** A method, not a field: the bean is a class proxy, whose own fields the target never sees. */
        public void stopDuringCall(DedicatedRedis redis) {
            stopDuringCall = redis;
        }

        @RateLimit(name = "tokens", key = "#tenant", rate = 60, interval = "60s", algorithm = "TOKEN_BUCKET",
                cost = "#result")
        public long complete(String tenant, long tokens) {
            DedicatedRedis redis = stopDuringCall;
            if (redis != null) {
                redis.stop();
            }
            return tokens;
        }
    }

    private final DedicatedRedis redis = RedisServers.startDedicated();

    @AfterEach
    void close() {
        redis.close();
    }

    @Test
    void aChargeRedisCannotTakeLeavesTheCallsValueAndIsCountedAsFailed() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                        AutoConfigs.type("DataRedisAutoConfiguration|RedisAutoConfiguration"),
                        GuardAutoConfiguration.class))
                .withBean(Gateway.class)
                .withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                        "guard.rate-limit.redis.client=spring-data", "guard.rate-limit.backend=redis")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    List<String> charges = new CopyOnWriteArrayList<>();
                    context.getBean(RateLimiterRegistry.class).addObserver(new RateLimitObserver() {
                        @Override
                        public void onDecision(RateLimitPolicy policy, Decision decision, long latencyNanos) {
                        }

                        @Override
                        public void onBackendError(RateLimitPolicy policy, Throwable error, long latencyNanos) {
                        }

                        @Override
                        public void onCharge(RateLimitPolicy policy, long permits, Quota quota, Throwable error) {
                            charges.add(permits + (error == null ? " debt " + quota.debt() : " failed"));
                        }
                    });
                    Gateway gateway = context.getBean(Gateway.class);
                    assertThat(gateway.complete("acme", 70)).isEqualTo(70);
                    assertThat(context.getBean(RateLimitQuotas.class).inspect("tokens", "acme").debt())
                            .isEqualTo(10);

                    gateway.stopDuringCall(redis);
                    long start = System.nanoTime();
                    long value = gateway.complete("other", 30);
                    Duration took = Duration.ofNanos(System.nanoTime() - start);

                    assertThat(value).isEqualTo(30);
                    assertThat(took).isLessThan(BOUND);
                    assertThat(charges).containsExactly("69 debt 10", "29 failed");
                });
    }
}
