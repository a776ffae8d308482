package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.StartupReports;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.ratelimit.ReplicaWait;
import io.guard.spring.annotation.RateLimit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code wait-for-replicas} and its timeout travel from properties to the policy, and bad values stop start-up. */
class WaitForReplicasPropertyTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local").withBean(Limits.class);

    static class Limits {
        @RateLimit(name = "payments", rate = 5)
        public String pay() {
            return "ok";
        }

        @RateLimit(name = "search", rate = 5)
        public String search() {
            return "ok";
        }
    }

    @Test
    void anInstanceWaitsForItsReplicasAndTheDefaultsApplyToTheOthers() {
        runner.withPropertyValues("guard.rate-limit.instances.payments.wait-for-replicas=1",
                "guard.rate-limit.instances.payments.wait-for-replicas-timeout=40ms",
                "guard.rate-limit.defaults.wait-for-replicas=2").run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(Limits.class).pay();
                    context.getBean(Limits.class).search();
                    RateLimiterRegistry registry = context.getBean(RateLimiterRegistry.class);
                    assertThat(registry.find("payments").orElseThrow().replicaWait())
                            .isEqualTo(new ReplicaWait(1, Duration.ofMillis(40)));
                    assertThat(registry.find("search").orElseThrow().replicaWait())
                            .isEqualTo(new ReplicaWait(2, Duration.ofMillis(100)));
                });
    }

    @Test
    void unsetWaitsForNoReplica() {
        runner.run(context -> {
            context.getBean(Limits.class).pay();
            assertThat(context.getBean(RateLimiterRegistry.class).find("payments").orElseThrow().replicaWait())
                    .isEqualTo(ReplicaWait.NONE);
        });
    }

    @Test
    void aNegativeCountAZeroTimeoutAndATimeoutBeyondTheRedisTimeoutStopStartUpNamingTheProperty() {
        runner.withPropertyValues("guard.rate-limit.instances.payments.wait-for-replicas=-1",
                "guard.rate-limit.instances.search.wait-for-replicas-timeout=0ms",
                "guard.rate-limit.defaults.wait-for-replicas-timeout=300ms").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = StartupReports.ofProperties(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).startsWith("3 Guard property values cannot work:")
                            .contains("guard.rate-limit.instances.payments.wait-for-replicas=-1: "
                                    + "wait-for-replicas must not be negative but was -1")
                            .contains("guard.rate-limit.instances.search.wait-for-replicas-timeout=0ms: must be at "
                                    + "least 1ms")
                            .contains("guard.rate-limit.defaults.wait-for-replicas-timeout=300ms: must be shorter "
                                    + "than guard.rate-limit.redis.timeout (250ms)");
                });
    }
}
