package io.guard.spring.observation;

import io.guard.breaker.State;
import io.micrometer.observation.Observation;

import java.lang.reflect.Method;
import java.util.Locale;
import java.time.Duration;

/**
 * What one {@code @CircuitBreaker} call observed: the breaker, the state that admitted (or refused) the call, how
 * the call ended and whether its fallback answered. With the state, a fallback's span says what sent the call
 * there: an {@code OPEN} breaker ({@code not-permitted}) or a failure the {@code CLOSED} breaker recorded.
 */
public class CircuitBreakerObservationContext extends Observation.Context {

    /** How a call through the breaker ended. */
    public enum Outcome {
        /** The method answered and the breaker recorded a success. */
        SUCCESS,
        /** The breaker recorded a failure (an error, or a result {@code record-result} calls one). */
        FAILURE,
        /** The method failed with an error the breaker ignores (ignore-exceptions, not in record-exceptions). */
        IGNORED,
        /** The breaker's timeout passed first; recorded as a failure. */
        TIMEOUT,
        /** The breaker refused the call (OPEN, FORCED_OPEN, or HALF_OPEN with its trial calls taken). */
        NOT_PERMITTED,
        /** The breaker's bulkhead ({@code max-concurrent-calls}) was full. */
        BULKHEAD_FULL,
        /** The call was cancelled, or refused by a rate limit inside the breaker: its permission went back. */
        RELEASED;


        /** The tag value: the name in lower case, dashed ({@code SHADOW_REFUSED} is {@code shadow-refused}). */
        public String tag() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final Method method;
    private final String methodName;
    private final String breaker;
    private State state;
    private Outcome outcome;
    private boolean fallback;
    private Duration retryAfter;

    /**
     * @param method     the guarded method
     * @param methodName the method as tags name it
     * @param breaker    the breaker's name
     */
    CircuitBreakerObservationContext(Method method, String methodName, String breaker) {
        this.method = method;
        this.methodName = methodName;
        this.breaker = breaker;
    }

    /** The method as tags name it: {@code OrderController.submit}. */
    public String getMethodName() {
        return methodName;
    }

    /** The guarded method. */
    public Method getMethod() {
        return method;
    }

    /** The breaker's name. */
    public String getBreaker() {
        return breaker;
    }

    /** The state that admitted the call, or the state that refused it. */
    public State getState() {
        return state;
    }

    /** How the call ended; null while it runs. */
    public Outcome getOutcome() {
        return outcome;
    }

    /** Whether the breaker's fallback method answered the call. */
    public boolean isFallback() {
        return fallback;
    }

    /** For a call an open breaker refused, the time left in OPEN; else null. */
    public Duration getRetryAfter() {
        return retryAfter;
    }

    void state(State state) {
        this.state = state;
    }

    void outcome(Outcome outcome) {
        if (this.outcome == null) { // the first answer counts: a late completion after a timeout does not
            this.outcome = outcome;
        }
    }

    void retryAfter(Duration retryAfter) {
        this.retryAfter = retryAfter;
    }

    void fallback() {
        this.fallback = true;
    }
}
