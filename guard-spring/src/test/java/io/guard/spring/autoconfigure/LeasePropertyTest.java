package io.guard.spring.autoconfigure;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.report.StartupReports;
import io.guard.spring.ratelimit.GuardLeases;
import io.guard.ratelimit.lease.LeaseSize;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code lease} is checked at start-up: a value that is no size, and a limit that cannot keep a lease's promise. */
class LeasePropertyTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local").withBean(Limits.class);

    static class Limits {
        @RateLimit(name = "log", rate = 5)
        public String log() {
            return "ok";
        }

        @RateLimit(name = "bucket", rate = 5, algorithm = "TOKEN_BUCKET")
        public String bucket() {
            return "ok";
        }
    }

    @Test
    void offIsTheDefaultAndTheInProcessBackendLeasesNothing() {
        runner.withPropertyValues("guard.rate-limit.instances.bucket.lease=auto").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Limits.class).bucket()).isEqualTo("ok");
            assertThat(context.getBean(GuardLeases.class).sizeOf("bucket")).isEqualTo(LeaseSize.OFF);
            assertThat(context.getBean(GuardLeases.class).stats()).isEmpty();
        });
    }

    @Test
    void aValueThatIsNoSizeStopsStartUpNamingTheProperty() {
        runner.withPropertyValues("guard.rate-limit.instances.bucket.lease=lots").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofProperties(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("guard.rate-limit.instances.bucket.lease=lots: lease must be"
                    + " 'off', 'auto' or a number of permits of at least 1 but was 'lots'");
        });
    }

    @Test
    void aSlidingLogAndALeaseAboveTheRateStopStartUpInTheOneReport() {
        runner.withPropertyValues("guard.rate-limit.instances.log.lease=2",
                "guard.rate-limit.instances.bucket.lease=50").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofAnnotations(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription())
                    .contains("lease '2' needs algorithm TOKEN_BUCKET or FIXED_WINDOW, but limit 'log' uses "
                            + "SLIDING_LOG")
                    .contains("lease 50 of limit 'bucket' exceeds the most permits it can grant at once (5)");
        });
    }
}
