package io.guard.spring.aop;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @RateLimit(condition = ...)} on a real Redis: a call whose condition is false neither spends a permit nor
 * writes a Redis key; a condition that cannot decide applies the limit; other limits of the method still apply.
 */
@RedisTest
class RateLimitConditionIT {

    private static AnnotationConfigApplicationContext context;
    private static RedisEndpoint redis;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(Reports.class)
    static class App {
        @Bean
        Plans plans() {
            return new Plans();
        }
    }

    /** A bean conditions can ask: who pays. */
    public static class Plans {
        private static final Set<String> PAYING = Set.of("acme");

        public boolean isFree(String tenant) {
            return !PAYING.contains(tenant);
        }
    }

    public record Caller(String tenant, boolean internal) {
    }

    static class Reports {
        @RateLimit(name = "report-external", key = "#caller.tenant()", rate = 1, interval = "60s",
                condition = "!#caller.internal()")
        public String report(Caller caller) {
            return "report";
        }

        @RateLimit(name = "export-free", key = "#tenant", rate = 1, interval = "60s",
                condition = "@plans.isFree(#tenant)")
        @RateLimit(name = "export-all", rate = 4, interval = "60s")
        public String export(String tenant) {
            return "export";
        }

        /** {@code #caller.tenant().isEmpty()} throws for a caller without a tenant: the limit applies then. */
        @RateLimit(name = "undecided", key = "'one'", rate = 1, interval = "60s",
                condition = "!#caller.tenant().isEmpty()")
        public String undecided(Caller caller) {
            return "undecided";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        context = RedisBacked.start(new AnnotationConfigApplicationContext(), endpoint, c -> c.register(App.class));
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void aCallWhoseConditionIsFalseSpendsNothingAndWritesNoKey() {
        Reports reports = context.getBean(Reports.class);
        for (int i = 0; i < 5; i++) {
            assertThat(reports.report(new Caller("ops", true))).isEqualTo("report");
        }
        assertThat(redis.keys()).noneMatch(key -> key.contains("report-external:ops"));

        assertThat(reports.report(new Caller("ops", false))).isEqualTo("report");
        assertThat(redis.keys()).anyMatch(key -> key.contains("report-external:ops"));
        assertThatThrownBy(() -> reports.report(new Caller("ops", false)))
                .isInstanceOf(RateLimitExceededException.class);
        assertThat(reports.report(new Caller("ops", true))).as("internal calls stay exempt").isEqualTo("report");
    }

    @Test
    void aConditionOverABeanExemptsFromOneLimitWhileTheOthersStillApply() {
        Reports reports = context.getBean(Reports.class);
        assertThat(reports.export("acme")).isEqualTo("export");
        assertThat(reports.export("acme")).as("paying tenant: no per-tenant limit").isEqualTo("export");
        assertThat(reports.export("hobby")).isEqualTo("export");
        assertThatThrownBy(() -> reports.export("hobby"))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.policyName()).isEqualTo("export-free"));
        // "export-all" (4 per minute) counted the three calls that passed; "export-free" is asked first and
        // refused the fourth before "export-all" was asked.
        assertThat(reports.export("acme")).isEqualTo("export");
        assertThatThrownBy(() -> reports.export("acme"))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.policyName()).isEqualTo("export-all"));
    }

    @Test
    void aConditionThatCannotDecideAppliesTheLimit() {
        Reports reports = context.getBean(Reports.class);
        assertThat(reports.undecided(new Caller(null, false))).isEqualTo("undecided");
        assertThatThrownBy(() -> reports.undecided(new Caller(null, false)))
                .isInstanceOf(RateLimitExceededException.class);
        assertThatThrownBy(() -> reports.undecided(new Caller("acme", false)))
                .as("a condition that decides true applies the same limit")
                .isInstanceOf(RateLimitExceededException.class);
    }
}
