package io.guard.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports Guard properties that cannot work ({@code guard.circuit-breaker.instances.payment.failure-rate-threshold=150:
 * failure-rate-threshold must be in (0, 100] but was 150.0}, one line each when there are several) instead of a
 * bean-creation stack trace.
 */
class GuardPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<GuardPropertiesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, GuardPropertiesException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
