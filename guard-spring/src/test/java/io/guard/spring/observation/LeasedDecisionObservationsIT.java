package io.guard.spring.observation;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import io.micrometer.observation.Observation;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.util.List;

import static io.guard.spring.observation.RecordingHandler.low;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * On Redis, a leased limit's allowed decisions are counted, not observed (guard.observations.allowed-leased-decisions
 * false, the default); its refusals are observed, and so are the decisions of an exact limit. With the property on,
 * every decision is observed again.
 */
@RedisTest
class LeasedDecisionObservationsIT {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import({Orders.class, RecordingHandler.Registered.class})
    static class App {
    }

    static class Orders {
        @RateLimit(name = "leased-orders", key = "#user", rate = 20, interval = "60s", algorithm = "TOKEN_BUCKET",
                lease = "5")
        public String leased(String user) {
            return "ok";
        }

        @RateLimit(name = "exact-orders", key = "#user", rate = 20, interval = "60s", algorithm = "TOKEN_BUCKET")
        public String exact(String user) {
            return "ok";
        }
    }

    @Test
    void allowedLeasedDecisionsAreNotObservedByDefaultButRefusalsAre(RedisEndpoint redis) {
        try (AnnotationConfigApplicationContext app = start(redis)) {
            Orders orders = app.getBean(Orders.class);
            for (int i = 0; i < 20; i++) {
                orders.leased("u1");
            }
            assertThatThrownBy(() -> orders.leased("u1")).isInstanceOf(RateLimitExceededException.class);
            orders.exact("u1");

            List<Observation.Context> decisions = decisions(app);
            assertThat(decisions).extracting(c -> low(c, "guard.limit") + " " + low(c, "guard.outcome"))
                    .containsExactly("leased-orders refused", "exact-orders allowed");
        }
    }

    @Test
    void withThePropertyOnEveryLeasedDecisionIsObserved(RedisEndpoint redis) {
        try (AnnotationConfigApplicationContext app = start(redis,
                "guard.observations.allowed-leased-decisions=true")) {
            Orders orders = app.getBean(Orders.class);
            for (int i = 0; i < 3; i++) {
                orders.leased("u2");
            }
            assertThat(decisions(app)).hasSize(3)
                    .allSatisfy(c -> assertThat(low(c, "guard.outcome")).isEqualTo("allowed"));
        }
    }

    private static AnnotationConfigApplicationContext start(RedisEndpoint redis, String... properties) {
        return RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> c.register(App.class),
                properties);
    }

    private static List<Observation.Context> decisions(AnnotationConfigApplicationContext app) {
        return app.getBean(RecordingHandler.class).named(DefaultRateLimitObservationConvention.NAME);
    }
}
