package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.ratelimit.RateLimiter;
import io.guard.spring.test.CountingRateLimiter;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.AbstractApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * The mistakes that used to stop start-up one at a time from the bean that needed them (the Redis timeouts, a Redis
 * client or backend without its bean, the routes) are in the one report of every {@code guard.*} mistake.
 */
class EveryMistakeInOneReportTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class));

    private static FailureAnalysis analysis(AbstractApplicationContextRunner<?, ?, ?> runner) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .as("the one report, not the error of the first bean that met a mistake")
                    .isInstanceOf(GuardPropertyMistakesException.class);
            analysis[0] = new GuardPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis of the start-up failure").isNotNull();
        return analysis[0];
    }

    @Test
    void aBadTimeoutABadWarmUpABadRouteAndAnUnknownNameFailStartUpOnceListingAllFour() {
        FailureAnalysis analysis = analysis(runner.withPropertyValues(
                "guard.rate-limit.backend=local",
                "guard.rate-limit.redis.timeout=0",
                "guard.rate-limit.redis.warm-up-timeout=-1s",
                "guard.rate-limit.defaults.rate=5",
                "guard.rate-limit.routes[0].name=api",
                "guard.rate-limit.routes[0].paths[0]=api/**",
                "guard.rate-limit.redis.timout=1s"));
        assertThat(analysis.getDescription()).startsWith("3 Guard property values cannot work:")
                .contains("guard.rate-limit.redis.timeout: is 'PT0S' but must be positive")
                .contains("guard.rate-limit.redis.warm-up-timeout: is 'PT-1S' but must be zero or positive")
                .contains("guard.rate-limit.routes: 1 mistake in the routes:")
                .contains("guard.rate-limit.routes[0].paths[0]: 'api/**' does not start with /")
                .contains("Guard does not know these properties; they would be ignored:")
                .contains("guard.rate-limit.redis.timout");
        assertThat(analysis.getAction()).contains("guard.rate-limit.redis.timeout=250ms",
                "guard.rate-limit.redis.warm-up-timeout=5s", "guard.rate-limit.routes[0].paths[0]: Write the path",
                "Replace guard.rate-limit.redis.timout with guard.rate-limit.redis.timeout.");
    }

    @Test
    void aChosenClientWithoutItsBeanIsReportedWithTheBadValues() {
        FailureAnalysis analysis = analysis(runner.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .withPropertyValues("guard.rate-limit.redis.client=redisson",
                        "guard.rate-limit.instances.a.rate=0"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.rate-limit.redis.client: is 'redisson' but the application has no RedissonClient "
                        + "bean")
                .contains("guard.rate-limit.instances.a.rate=0: rate must be");
        assertThat(analysis.getAction()).contains("redisson-spring-boot-starter");
    }

    @Test
    void theRedisBackendWithoutAnyClientIsReportedWithTheBadValues() {
        FailureAnalysis analysis = analysis(runner.withClassLoader(new FilteredClassLoader("org.redisson."))
                .withPropertyValues("guard.rate-limit.backend=redis", "guard.events.buffer-size=0"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.rate-limit.backend: is 'redis' but the application has no RedissonClient or "
                        + "RedisConnectionFactory bean")
                .contains("guard.events.buffer-size=0: must be at least 1");
    }

    @Test
    void aConnectionFactoryThatIsNotLettucesIsReportedWithTheBadValues() {
        FailureAnalysis analysis = analysis(runner
                .withClassLoader(new FilteredClassLoader("org.redisson."))
                .withBean("jedisLikeFactory", OtherConnectionFactory.class, () -> mock(OtherConnectionFactory.class))
                .withPropertyValues("guard.rate-limit.redis.timeout=-1s"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.rate-limit.redis.timeout: is 'PT-1S'")
                .contains("guard.rate-limit.redis.client: Guard's Redis backend runs on Spring Data Redis with "
                        + "Lettuce only, but the RedisConnectionFactory bean 'jedisLikeFactory' is a "
                        + OtherConnectionFactory.class.getName());
    }

    @Test
    void anApplicationsOwnLimiterNeedsNoRedisClientForTheRedisBackend() {
        runner.withClassLoader(new FilteredClassLoader("org.redisson."))
                .withBean(RateLimiter.class, CountingRateLimiter::new)
                .withPropertyValues("guard.rate-limit.backend=redis", "guard.rate-limit.redis.client=redisson")
                .run(context -> assertThat(context).hasNotFailed());
    }

    /** A Spring Data Redis connection factory of some other driver (Jedis, say), known by its type alone. */
    abstract static class OtherConnectionFactory implements RedisConnectionFactory {
    }
}
