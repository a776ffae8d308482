package io.guard.spring.breaker;

/**
 * Recorded by a breaker when {@code recordResult} says a returned value is a failure. It is never thrown to callers
 * (they receive the value); it exists so that such a result is counted, and appears in events, like any failure.
 */
public class ResultRecordedAsFailureException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ResultRecordedAsFailureException(String breakerName, String expression) {
        super("Result recorded as a failure of breaker '" + breakerName + "' by recordResult '" + expression + "'",
                null, false, false);
    }
}
