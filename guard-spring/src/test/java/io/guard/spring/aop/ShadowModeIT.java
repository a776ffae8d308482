package io.guard.spring.aop;

import io.guard.event.GuardEvent;
import io.guard.ratelimit.RateLimiterRegistry;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Shadow mode on a real Redis: a limit in shadow mode decides as usual (its refusals are counted, become events and
 * are logged with the limit's name, never the key) but never refuses, and it does not wait; the method's other
 * limits are unaffected.
 */
@RedisTest
@ExtendWith(OutputCaptureExtension.class)
class ShadowModeIT {

    private static AnnotationConfigApplicationContext context;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(Searches.class)
    static class App {
    }

    static class Searches {
        /** A tighter limit being rolled out next to the one in force; its timeout is ignored in shadow mode. */
        @RateLimit(name = "search-enforced", key = "#user", rate = 3, interval = "60s")
        @RateLimit(name = "search-trial", key = "#user", rate = 1, interval = "60s", timeout = "30s")
        public String search(String user) {
            return "results";
        }

        /** Two enforced limits, decided all-or-nothing, and a shadow one beside them. */
        @RateLimit(name = "export-wide", key = "#user", rate = 3, interval = "60s")
        @RateLimit(name = "export-narrow", key = "#user", rate = 2, interval = "60s")
        @RateLimit(name = "export-trial", key = "#user", rate = 1, interval = "60s")
        public String export(String user) {
            return "exported";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        context = RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> c.register(App.class),
                "guard.rate-limit.instances.search-trial.shadow=true",
                "guard.rate-limit.instances.export-trial.shadow=true");
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void aShadowLimitRecordsItsRefusalsButNeverRefuses(CapturedOutput output) {
        Searches searches = context.getBean(Searches.class);
        RateLimiterRegistry registry = context.getBean(RateLimiterRegistry.class);
        for (int i = 0; i < 3; i++) {
            assertThat(searches.search("secret-user-7")).isEqualTo("results");
        }
        assertThatThrownBy(() -> searches.search("secret-user-7"))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.policyName()).isEqualTo("search-enforced"));

        assertThat(registry.stats("search-trial").permitted()).isEqualTo(1);
        assertThat(registry.stats("search-trial").rejected()).as("every would-be refusal is counted").isEqualTo(2);
        assertThat(registry.recentEvents("search-trial")).extracting(GuardEvent::type)
                .filteredOn(type -> type == GuardEvent.Type.RATE_LIMITED).hasSize(2);
        assertThat(output.getOut()).contains("Rate limit 'search-trial' (shadow mode) would have refused a call of "
                + "@RateLimit on Searches.search(String): 1 permit(s), retry after ");
        assertThat(output.getAll()).as("keys never reach the logs").doesNotContain("secret-user-7");
    }

    @Test
    void aShadowLimitIsNotInTheGroupAndIsDecidedOnlyForCallsTheEnforcedLimitsAllow() {
        Searches searches = context.getBean(Searches.class);
        RateLimiterRegistry registry = context.getBean(RateLimiterRegistry.class);
        assertThat(searches.export("ann")).isEqualTo("exported");
        assertThat(searches.export("ann")).as("the shadow limit would refuse, and does not").isEqualTo("exported");
        assertThatThrownBy(() -> searches.export("ann"))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.policyName()).isEqualTo("export-narrow"));

        assertThat(registry.stats("export-wide")).as("the refused call spent nothing on the wide limit")
                .extracting(s -> s.permitted(), s -> s.rejected()).containsExactly(2L, 0L);
        assertThat(registry.stats("export-narrow")).extracting(s -> s.permitted(), s -> s.rejected())
                .containsExactly(2L, 1L);
        assertThat(registry.stats("export-trial")).as("not asked for the refused call")
                .extracting(s -> s.permitted(), s -> s.rejected()).containsExactly(1L, 1L);
    }
}
