package io.guard.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a Guard property that cannot work ({@code guard.circuit-breaker.instances.payment: failure-rate-threshold
 * must be in (0, 100] but was 150.0}) instead of a bean-creation stack trace.
 */
class GuardPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<GuardPropertiesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, GuardPropertiesException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
