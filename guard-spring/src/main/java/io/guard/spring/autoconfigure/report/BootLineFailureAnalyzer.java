package io.guard.spring.autoconfigure.report;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Names the Guard starter that fits the application's Spring Boot line. */
class BootLineFailureAnalyzer extends AbstractFailureAnalyzer<BootLineMismatchException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BootLineMismatchException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
