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

/**
 * A leased limit shows its size in the guard endpoint, with the leases held, and in the lease meters, which are per
 * limit: an exact limit has none, and one limit's reset shows in its own meters only.
 */
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

        @RateLimit(name = "leased-too", key = "#user", rate = 100, interval = "60s", algorithm = "TOKEN_BUCKET",
                lease = "5")
        public String leasedToo(String user) {
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
            assertThat(meters.get(LeaseMeters.LEASES).tag("name", "leased").functionCounter().count()).isEqualTo(1);
            assertThat(meters.get(LeaseMeters.HELD).tag("name", "leased").gauge().value()).isEqualTo(9);
            assertThat(meters.find(LeaseMeters.LEASES).tag("name", "leased-too").functionCounter())
                    .as("no lease taken yet").isNull();
            context.getBean(Limits.class).leasedToo("u");
            assertThat(meters.get(LeaseMeters.HELD).tag("name", "leased-too").gauge().value()).isEqualTo(4);
            assertThat(report.leases().leasesTaken()).as("the report's totals, read before").isEqualTo(1);
            assertThat(endpoint.guard().leases().permitsHeld()).as("every limit's").isEqualTo(13);
            assertThat(meters.find(LeaseMeters.LEASES).tag("name", "exact").functionCounter()).isNull();

            context.getBean(RateLimitQuotas.class).reset("leased", "u");
            assertThat(meters.get(LeaseMeters.PERMITS).tag("name", "leased").tag("result", "expired")
                    .functionCounter().count()).as("revoked by the reset: never spent, never given back").isEqualTo(9);
            assertThat(meters.get(LeaseMeters.HELD).tag("name", "leased").gauge().value()).isZero();
            assertThat(meters.get(LeaseMeters.PERMITS).tag("name", "leased-too").tag("result", "expired")
                    .functionCounter().count()).as("another limit's reset").isZero();
            assertThat(meters.get(LeaseMeters.HELD).tag("name", "leased-too").gauge().value()).isEqualTo(4);
        }
    }
}
