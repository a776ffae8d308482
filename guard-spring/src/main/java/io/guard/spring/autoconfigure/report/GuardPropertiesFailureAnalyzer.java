package io.guard.spring.autoconfigure.report;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports Guard properties that cannot work ({@code guard.circuit-breaker.instances.payment.failure-rate-threshold=150:
 * failure-rate-threshold must be in (0, 100] but was 150.0}, one line each when there are several, then the names
 * Guard does not know with what to write instead) instead of a bean-creation stack trace. Ordered first so that it
 * answers before Boot's analyzer of the binding error such a report may carry as its cause.
 */
class GuardPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<GuardPropertiesException> implements Ordered {

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, GuardPropertiesException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
