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

/**
 * {@code lease} (the property and {@code @RateLimit(lease)}) is checked at start-up: a value that is no size, a limit
 * that cannot keep a lease's promise, two declarations of one limit that lease differently.
 */
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

    static class LeasedLog {
        @RateLimit(name = "leased-log", rate = 50, lease = "5")
        public String log() {
            return "ok";
        }
    }

    static class NoSize {
        @RateLimit(name = "no-size", rate = 50, algorithm = "TOKEN_BUCKET", lease = "plenty")
        public String read() {
            return "ok";
        }
    }

    static class TwoWays {
        @RateLimit(name = "shared", rate = 50, algorithm = "TOKEN_BUCKET", lease = "auto")
        public String leased() {
            return "ok";
        }

        @RateLimit(name = "shared", rate = 50, algorithm = "TOKEN_BUCKET")
        public String exact() {
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

    @Test
    void anAnnotationThatIsNoSizeStopsStartUpNamingTheMethodAndTheValue() {
        runner.withBean(NoSize.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofAnnotations(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("NoSize.read").contains("lease")
                    .contains("'plenty' is not off, auto or a number of permits of at least 1");
        });
    }

    @Test
    void anAnnotatedLeaseOnASlidingLogStopsStartUp() {
        runner.withBean(LeasedLog.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofAnnotations(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("LeasedLog.log")
                    .contains("lease '5' needs algorithm TOKEN_BUCKET or FIXED_WINDOW, but limit 'leased-log' uses "
                            + "SLIDING_LOG");
        });
    }

    @Test
    void twoDeclarationsOfOneLimitThatLeaseDifferentlyStopStartUp() {
        runner.withBean(TwoWays.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofAnnotations(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("TwoWays.").contains("'shared'").contains("lease auto");
        });
    }
}
