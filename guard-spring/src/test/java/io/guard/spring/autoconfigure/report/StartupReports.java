package io.guard.spring.autoconfigure.report;

import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * What Guard's failure analyzers answer to a start-up failure, for tests outside this package that assert on the
 * report a user reads (the analyzers themselves stay package-private: Spring Boot finds them by name).
 */
public final class StartupReports {

    private StartupReports() {
    }

    /** The analysis of a {@code guard.*} mistake, or null when none caused {@code failure}. */
    public static FailureAnalysis ofProperties(Throwable failure) {
        return new GuardPropertiesFailureAnalyzer().analyze(failure);
    }

    /** The analysis of an annotation mistake, or null when none caused {@code failure}. */
    public static FailureAnalysis ofAnnotations(Throwable failure) {
        return new GuardAnnotationFailureAnalyzer().analyze(failure);
    }
}
