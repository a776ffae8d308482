package io.guard.spring.actuate;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of one application on one real Redis: a limit overridden through the {@code guard} endpoint of one
 * applies on the other within the stated bound, keeps the permits in use, shows where it came from, and once removed
 * gives configuration back, on both.
 */
@RedisTest
class LimitOverridesIT {

    /** The bound the documentation states: the poll interval (1 s here), pub/sub usually much sooner. */
    private static final Duration BOUND = Duration.ofSeconds(1);

    private static AnnotationConfigApplicationContext a;
    private static AnnotationConfigApplicationContext b;
    private static RedisEndpoint redis;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class, EndpointAutoConfiguration.class,
                    GuardEndpointAutoConfiguration.class})
    @Import(Quota.class)
    static class App {
    }

    static class Quota {
        @RateLimit(name = "quota", key = "#user", rate = 5, interval = "1h")
        public String take(String user) {
            return "ok";
        }

        @RateLimit(name = "rollout", key = "#user", rate = 1, interval = "1h")
        public String tryOut(String user) {
            return "ok";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        String[] properties = {"guard.rate-limit.override-poll-interval=1s",
                "management.endpoints.jmx.exposure.include=guard", "management.endpoints.web.exposure.include=guard"};
        a = RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> c.register(App.class), properties);
        b = RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> c.register(App.class), properties);
    }

    @AfterAll
    static void stop() {
        a.close();
        b.close();
    }

    @Test
    void anOverrideOnOneInstanceAppliesOnTheOtherAndKeepsThePermitsInUse() {
        Quota onA = a.getBean(Quota.class);
        Quota onB = b.getBean(Quota.class);
        for (int i = 0; i < 3; i++) {
            onA.take("ann");
        }

        Object answer = a.getBean(GuardEndpoint.class).changeState("quota", null, 10L, null, null, null);

        assertThat(answer).isInstanceOfSatisfying(RateLimiterDescriptor.class, limiter -> {
            assertThat(limiter.policy().rate()).isEqualTo(10);
            assertThat(limiter.source()).isEqualTo("override");
            assertThat(limiter.override().by()).isEqualTo("actuator");
            assertThat(limiter.override().shared()).isTrue();
            assertThat(limiter.override().configured().rate()).isEqualTo(5);
        });
        awaitWithinBound(() -> b.getBean(RateLimiterRegistry.class).find("quota").orElseThrow().rate() == 10);
        var onBEndpoint = b.getBean(GuardEndpoint.class).guardEntry("quota").rateLimiter();
        assertThat(onBEndpoint.source()).isEqualTo("override");
        assertThat(onBEndpoint.override().rate()).isEqualTo(10);

        // 3 of the 5 were in use; at 10 per hour, 7 are left, on either instance.
        for (int i = 0; i < 7; i++) {
            assertThat(onB.take("ann")).isEqualTo("ok");
        }
        assertThatThrownBy(() -> onA.take("ann")).isInstanceOf(RateLimitExceededException.class);

        b.getBean(GuardEndpoint.class).removeOverride("quota");

        awaitWithinBound(() -> a.getBean(RateLimiterRegistry.class).find("quota").orElseThrow().rate() == 5);
        assertThat(a.getBean(GuardEndpoint.class).guardEntry("quota").rateLimiter().source())
                .isEqualTo("configuration");
        assertThat(a.getBean(LiveLimits.class).overrideOf("quota")).isEmpty();
        assertThatThrownBy(() -> onA.take("ann")).isInstanceOf(RateLimitExceededException.class);
    }

    @Test
    void shadowModeSetOnOneInstanceStopsRefusalsOnBoth() {
        Quota onA = a.getBean(Quota.class);
        Quota onB = b.getBean(Quota.class);
        onB.tryOut("bob");
        assertThatThrownBy(() -> onB.tryOut("bob")).isInstanceOf(RateLimitExceededException.class);

        a.getBean(GuardEndpoint.class).changeState("rollout", null, null, null, null, true);

        awaitWithinBound(() -> b.getBean(LiveLimits.class).overrideOf("rollout").isPresent());
        assertThat(onB.tryOut("bob")).isEqualTo("ok");
        assertThat(onA.tryOut("bob")).isEqualTo("ok");
        assertThat(b.getBean(RateLimiterRegistry.class).stats("rollout").rejected())
                .as("shadow mode still records the would-be refusals").isGreaterThanOrEqualTo(2);

        a.getBean(GuardEndpoint.class).removeOverride("rollout");
        awaitWithinBound(() -> b.getBean(LiveLimits.class).overrideOf("rollout").isEmpty());
        assertThatThrownBy(() -> onB.tryOut("bob")).isInstanceOf(RateLimitExceededException.class);
    }

    @Test
    void anOverrideWhoseMessageWasMissedIsPickedUpByThePeriodicReRead() {
        // Written into the hash without the message, as if both instances had missed it.
        redis.call("HSET", redis.keyPrefix() + "{guard-overrides}", "quota",
                "interval=PT30M;source=actuator;at=2026-01-01T00:00:00Z");

        for (AnnotationConfigApplicationContext instance : new AnnotationConfigApplicationContext[] {a, b}) {
            awaitWithinBound(() -> instance.getBean(RateLimiterRegistry.class).find("quota").orElseThrow().interval()
                    .equals(Duration.ofMinutes(30)));
        }
        a.getBean(LiveLimits.class).removeOverride("quota");
        awaitWithinBound(() -> b.getBean(LiveLimits.class).overrideOf("quota").isEmpty());
        assertThat(b.getBean(RateLimiterRegistry.class).find("quota").orElseThrow().interval())
                .isEqualTo(Duration.ofHours(1));
    }

    @Test
    void anUnreadableStoredOverrideIsIgnoredAndConfigurationStays() {
        redis.call("HSET", redis.keyPrefix() + "{guard-overrides}", "rollout", "rate=0;source=someone");
        a.getBean(LiveLimits.class).refresh();
        assertThat(a.getBean(LiveLimits.class).overrideOf("rollout")).isEmpty();
        assertThat(a.getBean(RateLimiterRegistry.class).find("rollout").orElseThrow().rate()).isEqualTo(1);
        redis.call("HDEL", redis.keyPrefix() + "{guard-overrides}", "rollout");
    }

    /** Polls for at most twice the bound (the poll interval plus a round trip). */
    private static void awaitWithinBound(BooleanSupplier condition) {
        await().atMost(BOUND.multipliedBy(2)).pollInterval(Duration.ofMillis(20))
                .alias("applied within " + BOUND.multipliedBy(2)).until(condition::getAsBoolean);
    }
}
