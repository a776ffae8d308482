package io.guard.spring.aop;

import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.ratelimit.UnknownRateLimitTierException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;

import static io.guard.spring.aop.StartUpFailures.assertStartUpFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tiers ({@code @RateLimit(tier = ...)} with {@code guard.rate-limit.instances.<name>.tiers.*}): every tier is
 * validated at start-up and registered as a policy of its own, a call is decided under its tier's policy, and a tier
 * that is not configured takes the default tier or fails naming limit, method and value.
 */
class RateLimitTiersTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local",
                    "guard.rate-limit.instances.api.tiers.free.rate=2",
                    "guard.rate-limit.instances.api.tiers.pro.rate=5",
                    "guard.rate-limit.instances.api.tiers.pro.interval=10s");

    public enum Plan { FREE, PRO, ENTERPRISE }

    static class Api {
        @RateLimit(name = "api", key = "#client", tier = "#plan", interval = "60s")
        public String call(String client, Plan plan) {
            return "ok";
        }
    }

    @Test
    void eachTierIsAPolicyOfItsOwnFillingItsGapsFromTheLimit() {
        runner.withBean(Api.class).run(context -> {
            assertThat(context).hasNotFailed();
            RateLimiterRegistry limiters = context.getBean(RateLimiterRegistry.class);
            assertThat(limiters.policies()).extracting(RateLimitPolicy::name)
                    .containsExactlyInAnyOrder("api.free", "api.pro");
            assertThat(limiters.find("api.free").orElseThrow().interval()).isEqualTo(Duration.ofSeconds(60));
            assertThat(limiters.find("api.pro").orElseThrow().interval()).isEqualTo(Duration.ofSeconds(10));
            assertThat(limiters.find("api.pro").orElseThrow().burst()).as("a tier's burst is its own rate")
                    .isEqualTo(5);
        });
    }

    @Test
    void aCallIsDecidedUnderItsTiersPolicyAndAnEnumMatchesIgnoringCase() {
        runner.withBean(Api.class).run(context -> {
            Api api = context.getBean(Api.class);
            for (int i = 0; i < 5; i++) {
                assertThat(api.call("acme", Plan.PRO)).isEqualTo("ok");
            }
            assertThatThrownBy(() -> api.call("acme", Plan.PRO))
                    .isInstanceOfSatisfying(RateLimitExceededException.class, e -> {
                        assertThat(e.policyName()).isEqualTo("api.pro");
                        assertThat(e.getMessage()).contains("'api.pro' allows 5 requests per 10s");
                    });
            api.call("hobby", Plan.FREE);
            api.call("hobby", Plan.FREE);
            assertThatThrownBy(() -> api.call("hobby", Plan.FREE))
                    .isInstanceOfSatisfying(RateLimitExceededException.class,
                            e -> assertThat(e.policyName()).isEqualTo("api.free"));
            RateLimiterRegistry limiters = context.getBean(RateLimiterRegistry.class);
            assertThat(limiters.stats("api.pro").permitted()).isEqualTo(5);
            assertThat(limiters.stats("api.free").permitted()).isEqualTo(2);
        });
    }

    @Test
    void aTierThatIsNotConfiguredFailsNamingLimitMethodAndValue() {
        runner.withBean(Api.class).run(context -> {
            Api api = context.getBean(Api.class);
            assertThatThrownBy(() -> api.call("acme", Plan.ENTERPRISE))
                    .isInstanceOfSatisfying(UnknownRateLimitTierException.class, e -> {
                        assertThat(e.limitName()).isEqualTo("api");
                        assertThat(e.getMessage()).contains("Rate limit 'api' on @RateLimit on Api.call(String, Plan)",
                                "tier '#plan' is 'ENTERPRISE', which is not a configured tier",
                                "[free, pro]", "guard.rate-limit.instances.api.default-tier");
                    });
            assertThatThrownBy(() -> api.call("acme", null))
                    .isInstanceOfSatisfying(UnknownRateLimitTierException.class,
                            e -> assertThat(e.getMessage()).contains("tier '#plan' is null"));
        });
    }

    @Test
    void theDefaultTierDecidesCallsWithoutAConfiguredTier() {
        runner.withBean(Api.class).withPropertyValues("guard.rate-limit.instances.api.default-tier=free")
                .run(context -> {
                    Api api = context.getBean(Api.class);
                    api.call("acme", Plan.ENTERPRISE);
                    api.call("acme", null);
                    assertThatThrownBy(() -> api.call("acme", Plan.ENTERPRISE))
                            .isInstanceOfSatisfying(RateLimitExceededException.class,
                                    e -> assertThat(e.policyName()).isEqualTo("api.free"));
                });
    }

    static class TierWithoutTiers {
        @RateLimit(name = "other", rate = 5, tier = "#plan")
        public String call(String plan) {
            return "ok";
        }
    }

    static class TiersWithoutTier {
        @RateLimit(name = "api", rate = 5)
        public String call(String plan) {
            return "ok";
        }
    }

    static class TierOnUnknownParameter {
        @RateLimit(name = "api", tier = "#plann")
        public String call(String plan) {
            return "ok";
        }
    }

    static class TooManyPermitsForATier {
        @RateLimit(name = "api", tier = "#plan", permits = "3")
        public String call(String plan) {
            return "ok";
        }
    }

    @Test
    void everyTierMistakeStopsStartUpNamingMethodAndProperty() {
        assertStartUpFails(runner.withBean(TierWithoutTiers.class),
                "@RateLimit on TierWithoutTiers.call(String): tier '#plan' chooses a tier, but "
                        + "guard.rate-limit.instances.other.tiers configures none");
        assertStartUpFails(runner.withBean(TiersWithoutTier.class),
                "tier '' is empty, but guard.rate-limit.instances.api.tiers is configured");
        assertStartUpFails(runner.withBean(TierOnUnknownParameter.class), "tier '#plann' refers to no parameter");
        assertStartUpFails(runner.withBean(TooManyPermitsForATier.class),
                "permits '3' is more than limit 'api.free' can ever grant (between 1 and 2)");
        assertStartUpFails(runner.withBean(Api.class)
                        .withPropertyValues("guard.rate-limit.instances.api.default-tier=gold"),
                "falls back to guard.rate-limit.instances.api.default-tier=gold, which is not a configured tier");
        assertStartUpFails(runner.withBean(Api.class)
                        .withPropertyValues("guard.rate-limit.instances.api.tiers.pro.rate=0"),
                "guard.rate-limit.instances.api.tiers.pro' is an invalid limit", "rate must be between 1");
        assertStartUpFails(runner.withBean(Api.class)
                        .withPropertyValues("guard.rate-limit.instances.api.tiers[gold plan].rate=9"),
                "guard.rate-limit.instances.api.tiers.gold plan is not a valid tier name");
        assertStartUpFails(runner.withBean(Api.class)
                        .withPropertyValues("guard.rate-limit.instances.api.tiers.Free.rate=9"),
                "differ only in case");
        assertStartUpFails(runner.withBean(Api.class)
                        .withPropertyValues("guard.rate-limit.instances.api.tiers.gold.interval=1m"),
                "guard.rate-limit.instances.api.tiers.gold' has no rate");
    }
}
