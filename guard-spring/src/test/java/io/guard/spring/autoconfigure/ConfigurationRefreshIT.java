package io.guard.spring.autoconfigure;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.spring.actuate.GuardEndpoint;
import io.guard.spring.actuate.GuardEndpointAutoConfiguration;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.autoconfigure.ConfigurationPropertiesRebinderAutoConfiguration;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A configuration refresh (Spring Cloud's {@code EnvironmentChangeEvent}, with Spring Cloud's own rebinding of
 * {@code @ConfigurationProperties} beans at work too) on a real Redis: a changed rate applies on the next call and
 * keeps the permits in use, shadow mode follows the configuration, a bad value changes nothing and is logged, a key
 * read only at start-up is logged as needing a restart, and an operator's override stays on top.
 */
@RedisTest
@ExtendWith(OutputCaptureExtension.class)
class ConfigurationRefreshIT {

    private static AnnotationConfigApplicationContext context;
    /** What the "configuration server" changed: first among the property sources. */
    private static final Map<String, Object> refreshed = new HashMap<>();

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class, EndpointAutoConfiguration.class,
                    GuardEndpointAutoConfiguration.class, ConfigurationPropertiesRebinderAutoConfiguration.class})
    @Import(Quotas.class)
    static class App {
    }

    static class Quotas {
        @RateLimit(name = "x", key = "#user", rate = 5, interval = "1h")
        public String take(String user) {
            return "ok";
        }

        @RateLimit(name = "trial", key = "#user", rate = 1, interval = "1h")
        public String tryOut(String user) {
            return "ok";
        }

        @RateLimit(name = "steady", key = "#user", interval = "1h")
        public String steady(String user) {
            return "ok";
        }

        @RateLimit(name = "plans", key = "#user", tier = "#plan", interval = "1h")
        public String plan(String user, String plan) {
            return "ok";
        }

        @RateLimit(name = "layered", key = "#user", rate = 5, interval = "1h")
        public String layered(String user) {
            return "ok";
        }

        @RateLimit(name = "bulk", key = "#user", rate = 100, interval = "1h", algorithm = "TOKEN_BUCKET")
        public String bulk(String user) {
            return "ok";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        context = RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> {
            c.register(App.class);
            c.getEnvironment().getPropertySources().addFirst(new MapPropertySource("refreshed", refreshed));
        }, "guard.rate-limit.instances.steady.rate=2", "guard.rate-limit.instances.plans.tiers.free.rate=2",
                "guard.rate-limit.instances.plans.tiers.pro.rate=100", "management.endpoints.jmx.exposure.include=guard",
                "management.endpoints.web.exposure.include=guard");
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    /** Back to the configuration of start-up, by a refresh too. */
    @AfterEach
    void restore() {
        Set<String> keys = Set.copyOf(refreshed.keySet());
        refreshed.clear();
        refresh(keys);
    }

    @Test
    void aRaisedRateAppliesOnTheNextCallAndKeepsThePermitsInUse() {
        Quotas quotas = context.getBean(Quotas.class);
        for (int i = 0; i < 3; i++) {
            quotas.take("ann");
        }

        change("guard.rate-limit.instances.x.rate", "10");

        for (int i = 0; i < 7; i++) {
            assertThat(quotas.take("ann")).as("permit %d of the 7 left", i + 1).isEqualTo("ok");
        }
        assertThatThrownBy(() -> quotas.take("ann")).isInstanceOf(RateLimitExceededException.class);
        var limiter = context.getBean(GuardEndpoint.class).guardEntry("x").rateLimiter();
        assertThat(limiter.policy().rate()).isEqualTo(10);
        assertThat(limiter.source()).isEqualTo("refresh");
        assertThat(limiter.refreshedAt()).isNotNull();
    }

    @Test
    void shadowModeFollowsTheRefreshedConfiguration() {
        Quotas quotas = context.getBean(Quotas.class);
        quotas.tryOut("bob");
        assertThatThrownBy(() -> quotas.tryOut("bob")).isInstanceOf(RateLimitExceededException.class);

        change("guard.rate-limit.instances.trial.shadow", "true");
        assertThat(quotas.tryOut("bob")).isEqualTo("ok");

        change("guard.rate-limit.instances.trial.shadow", "false");
        assertThatThrownBy(() -> quotas.tryOut("bob")).isInstanceOf(RateLimitExceededException.class);
    }

    @Test
    void aBadValueChangesNoLimitAndIsLoggedWithItsProperty(CapturedOutput output) {
        refreshed.put("guard.rate-limit.instances.x.rate", "50");
        change("guard.rate-limit.instances.steady.rate", "0");

        RateLimiterRegistry registry = context.getBean(RateLimiterRegistry.class);
        assertThat(registry.find("steady").orElseThrow().rate()).isEqualTo(2);
        assertThat(registry.find("x").orElseThrow().rate()).as("all or nothing").isEqualTo(5);
        assertThat(output.getOut()).contains("guard.rate-limit.instances.steady.rate=0");
        Quotas quotas = context.getBean(Quotas.class);
        quotas.steady("cy");
        quotas.steady("cy");
        assertThatThrownBy(() -> quotas.steady("cy")).isInstanceOf(RateLimitExceededException.class);
    }

    @Test
    void anUnknownPropertyChangesNoLimitAndIsLogged(CapturedOutput output) {
        refreshed.put("guard.rate-limit.instances.x.rate", "50");
        refreshed.put("guard.rate-limit.instances.x.rat", "10");

        // Spring Cloud's rebinding of GuardProperties (unknown fields not ignored) fails the refresh itself
        assertThatThrownBy(() -> refresh(Set.of("guard.rate-limit.instances.x.rate",
                "guard.rate-limit.instances.x.rat"))).hasStackTraceContaining("guard.rate-limit.instances.x.rat");
        assertThat(context.getBean(RateLimiterRegistry.class).find("x").orElseThrow().rate()).isEqualTo(5);
        assertThat(output.getOut()).contains("guard.rate-limit.instances.x.rat");
    }

    @Test
    void aTierFollowsTheRefreshedConfiguration() {
        change("guard.rate-limit.instances.plans.tiers.free.rate", "4");

        RateLimiterRegistry registry = context.getBean(RateLimiterRegistry.class);
        assertThat(registry.find("plans.free").orElseThrow().rate()).isEqualTo(4);
        assertThat(registry.find("plans.pro").orElseThrow().rate()).isEqualTo(100);
    }

    @Test
    void aKeyReadOnlyAtStartUpIsLoggedAsNeedingARestart(CapturedOutput output) {
        change("guard.rate-limit.instances.steady.scope", "PER_INSTANCE");

        assertThat(output.getOut()).contains("guard.rate-limit.instances.steady.scope=PER_INSTANCE")
                .contains("needs a restart");
        assertThat(context.getBean(RateLimiterRegistry.class).find("steady").orElseThrow().scope())
                .isEqualTo(Scope.GLOBAL);
    }

    /** A breaker's bulkhead, like everything outside guard.rate-limit, is built at start-up: said, not ignored. */
    @Test
    void aBreakerKeyIsLoggedAsNeedingARestart(CapturedOutput output) {
        change("guard.circuit-breaker.instances.stock.max-concurrent-calls", "3");

        assertThat(output.getOut()).contains("guard.circuit-breaker.instances.stock.max-concurrent-calls=3 changed by "
                + "a configuration refresh needs a restart to apply");
    }

    @Test
    void anOperatorsOverrideStaysOnTopOfARefreshedConfiguration() {
        LiveLimits live = context.getBean(LiveLimits.class);
        RateLimiterRegistry registry = context.getBean(RateLimiterRegistry.class);
        live.override("layered", 20L, null, null, null, "actuator");
        try {
            change("guard.rate-limit.instances.layered.rate", "8");

            assertThat(registry.find("layered").orElseThrow().rate()).isEqualTo(20);
            assertThat(live.configuredPolicy("layered").orElseThrow().rate()).isEqualTo(8);
            assertThat(context.getBean(GuardEndpoint.class).guardEntry("layered").rateLimiter().source())
                    .isEqualTo("override");
        } finally {
            live.removeOverride("layered");
        }
        assertThat(registry.find("layered").orElseThrow().rate()).isEqualTo(8);
    }

    @Test
    void aLeaseSetByARefreshLeasesFromTheNextCallAndOffMakesItExactAgain() {
        Quotas quotas = context.getBean(Quotas.class);
        GuardLeases leases = context.getBean(GuardLeases.class);
        assertThat(leases.sizeOf("bulk")).isEqualTo(LeaseSize.OFF);

        change("guard.rate-limit.instances.bulk.lease", "10");

        assertThat(leases.sizeOf("bulk")).isEqualTo(new LeaseSize(false, 10));
        long taken = leases.stats().orElseThrow().leasesTaken();
        for (int i = 0; i < 10; i++) {
            quotas.bulk("eve");
        }
        assertThat(leases.stats().orElseThrow().leasesTaken()).as("ten calls, one lease").isEqualTo(taken + 1);

        change("guard.rate-limit.instances.bulk.lease", "off");

        assertThat(leases.sizeOf("bulk")).isEqualTo(LeaseSize.OFF);
        quotas.bulk("eve");
        assertThat(leases.stats().orElseThrow().leasesTaken()).as("exact again").isEqualTo(taken + 1);
    }

    @Test
    void aLeaseALimitCannotKeepChangesNothingAndIsLogged(CapturedOutput output) {
        change("guard.rate-limit.instances.x.lease", "auto");

        assertThat(context.getBean(GuardLeases.class).sizeOf("x")).isEqualTo(LeaseSize.OFF);
        assertThat(output).contains("Ignoring the refreshed guard.rate-limit configuration")
                .contains("needs algorithm TOKEN_BUCKET or FIXED_WINDOW, but limit 'x' uses SLIDING_LOG");
    }

    private static void change(String key, String value) {
        refreshed.put(key, value);
        refresh(Set.of(key));
    }

    private static void refresh(Set<String> keys) {
        context.publishEvent(new EnvironmentChangeEvent(context, keys));
    }
}
