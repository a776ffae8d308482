package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.StartupReports;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code guard.rate-limit.routes[i].cost-header} and {@code cost-on-failure}: a route that cannot carry a debt
 * stops start-up, naming the route, the property and the value, in the words the annotation's checks use.
 */
class RouteCostConfigurationTest {

    private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local",
                    "guard.rate-limit.instances.bucket.algorithm=token-bucket",
                    "guard.rate-limit.instances.bucket.rate=100",
                    "guard.rate-limit.instances.log.rate=100",
                    "guard.rate-limit.instances.leased.algorithm=token-bucket",
                    "guard.rate-limit.instances.leased.rate=100",
                    "guard.rate-limit.instances.leased.lease=10");

    private FailureAnalysis failure(String... route) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        servlet.withPropertyValues(route).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = StartupReports.ofProperties(context.getStartupFailure());
        });
        assertThat(analysis[0]).isNotNull();
        return analysis[0];
    }

    @Test
    void aCostOnALimitThatIsNotATokenBucketStopsStartUp() {
        FailureAnalysis analysis = failure("guard.rate-limit.routes[0].name=log",
                "guard.rate-limit.routes[0].paths[0]=/llm/**", "guard.rate-limit.routes[0].cost-header=X-Usage-Tokens");

        assertThat(analysis.getDescription()).contains("guard.rate-limit.routes[0].cost-header: 'X-Usage-Tokens' "
                + "needs a TOKEN_BUCKET limit (whose balance can go into debt), but 'log' counts with SLIDING_LOG");
        assertThat(analysis.getAction()).contains("Set guard.rate-limit.instances.log.algorithm=token-bucket.");
    }

    @Test
    void aCostOnALeasedLimitStopsStartUp() {
        FailureAnalysis analysis = failure("guard.rate-limit.routes[0].name=leased",
                "guard.rate-limit.routes[0].paths[0]=/llm/**", "guard.rate-limit.routes[0].cost-header=X-Usage-Tokens");

        assertThat(analysis.getDescription()).contains("guard.rate-limit.routes[0].cost-header: 'X-Usage-Tokens' "
                + "cannot be charged on a leased limit (lease=10)");
        assertThat(analysis.getAction()).contains("Set guard.rate-limit.instances.leased.lease=off.");
    }

    @Test
    void costOnFailureWithoutACostHeaderStopsStartUp() {
        FailureAnalysis analysis = failure("guard.rate-limit.routes[0].name=bucket",
                "guard.rate-limit.routes[0].paths[0]=/llm/**", "guard.rate-limit.routes[0].cost-on-failure=none");

        assertThat(analysis.getDescription())
                .contains("guard.rate-limit.routes[0].cost-on-failure: 'none' is set without a cost-header");
    }

    @Test
    void anUnknownCostOnFailureAndABadHeaderNameStopStartUp() {
        FailureAnalysis analysis = failure("guard.rate-limit.routes[0].name=bucket",
                "guard.rate-limit.routes[0].paths[0]=/llm/**", "guard.rate-limit.routes[0].cost-header=X-Usage-Tokens",
                "guard.rate-limit.routes[0].cost-on-failure=refund",
                "guard.rate-limit.routes[1].name=bucket", "guard.rate-limit.routes[1].paths[0]=/chat/**",
                "guard.rate-limit.routes[1].cost-header=X Usage");

        assertThat(analysis.getDescription())
                .contains("guard.rate-limit.routes[0].cost-on-failure: 'refund' is neither estimate nor none")
                .contains("guard.rate-limit.routes[1].cost-header: 'X Usage' is not a header name");
    }

    @Test
    void aCostOnATokenBucketStarts() {
        servlet.withPropertyValues("guard.rate-limit.routes[0].name=bucket",
                "guard.rate-limit.routes[0].paths[0]=/llm/**", "guard.rate-limit.routes[0].cost-header=X-Usage-Tokens",
                "guard.rate-limit.routes[0].cost-on-failure=none"
        ).run(context -> assertThat(context).hasNotFailed());
    }
}
