package io.guard.spring.ratelimit;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.ratelimit.lease.LeaseStats;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code guard.rate-limit.instances.<name>.lease} and {@code @RateLimit(lease)} on two instances of an application (two contexts, each with its own
 * Redis client) sharing one Redis: decisions come from leases, the quota is never exceeded, refusals still say when
 * to retry, and a reset or a live override on one instance revokes the leases the other holds.
 */
@RedisTest
class LeasedLimitsIT {

    private static AnnotationConfigApplicationContext a;
    private static AnnotationConfigApplicationContext b;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(Orders.class)
    static class App {
    }

    static class Orders {
        @RateLimit(name = "orders", key = "#user", rate = 100, interval = "60s", algorithm = "FIXED_WINDOW")
        public String order(String user) {
            return "ok";
        }

        @RateLimit(name = "exact", key = "#user", rate = 100, interval = "60s", algorithm = "FIXED_WINDOW")
        public String exact(String user) {
            return "ok";
        }

        @RateLimit(name = "annotated", key = "#user", rate = 100, interval = "60s", algorithm = "FIXED_WINDOW",
                lease = "10")
        public String annotated(String user) {
            return "ok";
        }

        @RateLimit(name = "overruled", key = "#user", rate = 100, interval = "60s", algorithm = "FIXED_WINDOW",
                lease = "10")
        public String overruled(String user) {
            return "ok";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        String[] properties = {"guard.rate-limit.instances.orders.lease=10",
                "guard.rate-limit.instances.overruled.lease=off",
                "guard.rate-limit.override-poll-interval=200ms"};
        a = RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> c.register(App.class), properties);
        b = RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> c.register(App.class), properties);
    }

    @AfterAll
    static void stop() {
        a.close();
        b.close();
    }

    private static LeaseStats stats(AnnotationConfigApplicationContext context) {
        return context.getBean(GuardLeases.class).stats().orElseThrow();
    }

    @Test
    void twoInstancesShareTheQuotaThroughLeasesAndRefuseWithARetryAfter() {
        GuardLeases leases = a.getBean(GuardLeases.class);
        assertThat(leases.sizeOf("orders")).isEqualTo(new LeaseSize(false, 10));
        assertThat(leases.sizeOf("exact")).isEqualTo(LeaseSize.OFF);
        long before = stats(a).leasesTaken() + stats(b).leasesTaken();
        int admitted = 0;
        RateLimitExceededException refused = null;
        for (int i = 0; i < 120 && refused == null; i++) {
            try {
                (i % 2 == 0 ? a : b).getBean(Orders.class).order("user-1");
                admitted++;
            } catch (RateLimitExceededException e) {
                refused = e;
            }
        }
        assertThat(admitted).as("the whole quota, less what the other instance holds").isBetween(91, 100);
        assertThat(refused).isNotNull();
        assertThat(refused.retryAfterHint().orElseThrow()).isPositive();
        assertThat(stats(a).leasesTaken() + stats(b).leasesTaken() - before).isBetween(10L, 12L);
    }

    @Test
    void aResetOnOneInstanceRevokesTheOthersLeases() {
        b.getBean(Orders.class).order("user-2");
        assertThat(stats(b).permitsHeld()).isPositive();
        a.getBean(RateLimitQuotas.class).reset("orders", "user-2");
        await().atMost(Duration.ofSeconds(20)).until(() -> stats(b).permitsHeld() == 0);
    }

    @Test
    void aLiveOverrideOnOneInstanceRevokesTheOthersLeaseAtItsNextCall() {
        b.getBean(Orders.class).order("user-3");
        long taken = stats(b).leasesTaken();
        long returned = stats(b).permitsReturned();
        a.getBean(LiveLimits.class).override("orders", 50L, null, null, null, "test");
        await().atMost(Duration.ofSeconds(20)).until(() -> b.getBean(RateLimiterRegistry.class).find("orders")
                .orElseThrow().rate() == 50);
        b.getBean(Orders.class).order("user-3");
        assertThat(stats(b).leasesTaken()).as("a new lease under the new limit").isEqualTo(taken + 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> stats(b).permitsReturned() >= returned + 9);
        a.getBean(LiveLimits.class).removeOverride("orders");
    }

    @Test
    void theAnnotationLeasesUnlessItsInstancePropertySaysOtherwise() {
        GuardLeases leases = a.getBean(GuardLeases.class);
        assertThat(leases.sizeOf("annotated")).isEqualTo(new LeaseSize(false, 10));
        assertThat(leases.sizeOf("overruled")).isEqualTo(LeaseSize.OFF);
        long taken = stats(a).leasesTaken();
        for (int i = 0; i < 10; i++) {
            a.getBean(Orders.class).annotated("user-5");
        }
        assertThat(stats(a).leasesTaken()).as("ten calls, one lease of 10").isEqualTo(taken + 1);
        for (int i = 0; i < 3; i++) {
            a.getBean(Orders.class).overruled("user-5");
        }
        assertThat(stats(a).leasesTaken()).as("lease=off over the annotation: exact").isEqualTo(taken + 1);
    }

    @Test
    void exactLimitsNeverLease() {
        long taken = stats(a).leasesTaken();
        a.getBean(Orders.class).exact("user-4");
        assertThat(stats(a).leasesTaken()).isEqualTo(taken);
    }
}
