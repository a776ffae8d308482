package io.guard.spring.autoconfigure.report;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up report of a context that must fail, as Spring Boot's failure analysis shows it to the user. */
final class StartupFailures {

    private StartupFailures() {
    }

    static FailureAnalysis analysis(ApplicationContextRunner runner) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = new GuardPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis of the start-up failure").isNotNull();
        return analysis[0];
    }
}
