package io.guard.spring.autoconfigure.report;

import io.guard.spring.method.GuardAnnotationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a Guard annotation that cannot work ({@code @RateLimit on OrderController.submit(long): key '#usrId'
 * refers to no parameter; parameters are [userId]}) instead of a bean-creation stack trace.
 */
class GuardAnnotationFailureAnalyzer extends AbstractFailureAnalyzer<GuardAnnotationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, GuardAnnotationException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
