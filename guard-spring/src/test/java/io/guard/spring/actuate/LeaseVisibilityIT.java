package io.guard.spring.actuate;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.spring.ratelimit.RateLimitQuotas;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/** A leased limit shows its size in the guard endpoint, with the leases held, and in the lease meters. */
@RedisTest
class LeaseVisibilityIT {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(Limits.class)
    static class App {
    }

    static class Limits {
        @RateLimit(name = "leased", key = "#user", rate = 100, interval = "60s", algorithm = "TOKEN_BUCKET")
        public String leased(String user) {
            return "ok";
        }

        @RateLimit(name = "exact", key = "#user", rate = 100, interval = "60s", algorithm = "TOKEN_BUCKET")
        public String exact(String user) {
            return "ok";
        }
    }

    @Test
    void theEndpointAndTheMetersShowTheModeAndTheLeasesHeld(RedisEndpoint redis) {
        try (AnnotationConfigApplicationContext context = RedisBacked.start(new AnnotationConfigApplicationContext(),
                redis, c -> c.register(App.class), "guard.rate-limit.instances.leased.lease=10")) {
            GuardLeases leases = context.getBean(GuardLeases.class);
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            new LeaseMeters(leases).bindTo(meters);
            context.getBean(Limits.class).leased("u");
            context.getBean(Limits.class).exact("u");

            GuardEndpoint endpoint = new GuardEndpoint(new GuardRegistries(null,
                    context.getBean(RateLimiterRegistry.class)), null, leases);
            GuardEndpoint.GuardReport report = endpoint.guard();
            assertThat(report.rateLimiters().get("leased").lease()).isEqualTo("10");
            assertThat(report.rateLimiters().get("exact").lease()).isNull();
            assertThat(report.leases().leasesTaken()).isEqualTo(1);
            assertThat(report.leases().permitsHeld()).isEqualTo(9);
            assertThat(meters.get(LeaseMeters.LEASES).functionCounter().count()).isEqualTo(1);
            assertThat(meters.get(LeaseMeters.HELD).gauge().value()).isEqualTo(9);

            context.getBean(RateLimitQuotas.class).reset("leased", "u");
            assertThat(meters.get(LeaseMeters.PERMITS).tag("result", "expired").functionCounter().count())
                    .as("revoked by the reset: never spent, never given back").isEqualTo(9);
            assertThat(meters.get(LeaseMeters.HELD).gauge().value()).isZero();
        }
    }
}
