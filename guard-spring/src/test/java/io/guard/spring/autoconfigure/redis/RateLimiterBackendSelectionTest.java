package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.autoconfigure.report.StartupReports;
import io.guard.ratelimit.RateLimiter;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.ratelimit.FailoverRateLimiter;
import io.guard.ratelimit.redis.ScriptConnection;
import io.guard.spring.test.CountingRateLimiter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

@ExtendWith(OutputCaptureExtension.class)
class RateLimiterBackendSelectionTest {

    private static final String PER_INSTANCE_WARNING = "rate limits are counted in this process";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class));

    @Test
    void countsInProcessWithOneWarningWithoutRedisson(CapturedOutput output) {
        runner.withClassLoader(new FilteredClassLoader(RedissonClient.class)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(RateLimiter.class)).isInstanceOf(LocalRateLimiter.class);
        });
        assertThat(output.getOut().split(PER_INSTANCE_WARNING, -1)).hasSize(2);
    }

    @Test
    void countsInRedisWhenARedissonClientExists(CapturedOutput output) {
        runner.withBean(RedissonClient.class, () -> mock(RedissonClient.class)).run(context ->
                assertThat(context.getBean(RateLimiter.class)).isInstanceOf(FailoverRateLimiter.class));
        assertThat(output.getOut()).doesNotContain(PER_INSTANCE_WARNING);
    }

    @Test
    void localCanBeForcedEvenWithRedissonAndThenDoesNotWarn(CapturedOutput output) {
        runner.withBean(RedissonClient.class, () -> mock(RedissonClient.class))
                .withPropertyValues("guard.rate-limit.backend=local").run(context ->
                        assertThat(context.getBean(RateLimiter.class)).isInstanceOf(LocalRateLimiter.class));
        assertThat(output.getOut()).doesNotContain(PER_INSTANCE_WARNING);
    }

    @Test
    void forcingRedisWithoutRedissonStopsStartUp() {
        runner.withClassLoader(new FilteredClassLoader("org.redisson."))
                .withPropertyValues("guard.rate-limit.backend=redis").run(context -> {
                    assertThat(context).hasFailed();
                    var analysis = StartupReports.ofProperties(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .isEqualTo("guard.rate-limit.backend: is 'redis' but the application has no "
                                    + "RedissonClient or RedisConnectionFactory bean");
                    assertThat(analysis.getAction()).contains("org.redisson:redisson", "guard.rate-limit.backend=local");
                });
    }

    @Test
    void forcingRedisWithoutAClientMakesALazyOneFromSpringDataRedisProperties() {
        // nothing listens on port 1: the client must not connect while the application starts
        runner.withPropertyValues("guard.rate-limit.backend=redis", "spring.data.redis.host=127.0.0.1",
                "spring.data.redis.port=1").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(RedissonClient.class);
                    assertThat(context.getBean(RateLimiter.class)).isInstanceOf(FailoverRateLimiter.class);
                });
    }

    @Test
    void usesTheApplicationsOwnClientWhenItHasOne() {
        RedissonClient own = mock(RedissonClient.class);
        runner.withBean(RedissonClient.class, () -> own).withPropertyValues("guard.rate-limit.backend=redis")
                .run(context -> assertThat(context.getBean(RedissonClient.class)).isSameAs(own));
    }

    @Test
    void aChosenClientThatIsMissingStopsStartUpNamingTheProperty() {
        runner.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .withPropertyValues("guard.rate-limit.redis.client=redisson").run(context -> {
            assertThat(context).hasFailed();
            var analysis = StartupReports.ofProperties(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo(
                    "guard.rate-limit.redis.client: is 'redisson' but the application has no RedissonClient bean");
        });
    }

    @Test
    void autoPrefersTheRedissonClient() {
        runner.withBean(RedissonClient.class, () -> mock(RedissonClient.class)).run(context ->
                assertThat(context.getBean(ScriptConnection.class).clientName()).isEqualTo("redisson"));
    }

    @Test
    void backsOffWhenTheUserDefinesALimiter() {
        runner.withBean(RedissonClient.class, () -> mock(RedissonClient.class)).run(context ->
                assertThat(context).hasSingleBean(RateLimiter.class));
        runner.withBean(RateLimiter.class, CountingRateLimiter::new).run(context ->
                assertThat(context.getBean(RateLimiter.class)).isInstanceOf(CountingRateLimiter.class));
    }
}
