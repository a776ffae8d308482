package io.guard.spring.observation;

import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.BackendFailureReason;
import io.micrometer.observation.Observation;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What one {@code @RateLimit} decision observed: the limits asked, which one answered, the outcome and, for a
 * refusal, the wait. It never holds the resolved key (a user id, an address): a convention that wants one must
 * compute it from the call itself, and take responsibility for the tag's cardinality and for personal data.
 */
public class RateLimitObservationContext extends Observation.Context {

    /** How a decision ended. */
    public enum Outcome {
        /** Every enforced limit granted its permits. */
        ALLOWED,
        /** An enforced limit refused: the caller got a 429, a refusal or the limit's fallback. */
        REFUSED,
        /** The call went on, but a limit in shadow mode would have refused it. */
        SHADOW_REFUSED,
        /**
         * No decision: the key or permits could not be resolved, or the backend failed and the limit's
         * {@code on-backend-failure} is {@code FAIL_CLOSED}. A {@code FAIL_OPEN} answer is {@link #ALLOWED} here,
         * with its {@link #getFailurePolicy() failure policy} and {@link #getBackendFailure() reason} beside it, and
         * counted as an error in {@code guard.ratelimit.requests}.
         */
        ERROR;


        /** The tag value: the name in lower case, dashed ({@code SHADOW_REFUSED} is {@code shadow-refused}). */
        public String tag() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final Method method;
    private final String methodName;
    private final List<String> limits;
    private String limit;
    private Outcome outcome;
    private Duration retryAfter;
    private boolean fallback;
    private BackendFailurePolicy failurePolicy;
    private BackendFailureReason backendFailure;

    RateLimitObservationContext(Method method, GuardObservations.Names names) {
        this.method = method;
        this.methodName = names.method();
        this.limits = names.limits();
        this.limit = limits.isEmpty() ? "" : limits.get(0);
    }

    /** The guarded method; null for URL-pattern limits ({@code guard.rate-limit.routes}), which no method declares. */
    public Method getMethod() {
        return method;
    }

    /** The method as tags name it: {@code OrderController.submit}, or {@code guard.rate-limit.routes}. */
    public String getMethodName() {
        return methodName;
    }

    /** The names of the method's limits, in the order they are checked. */
    public List<String> getLimits() {
        return limits;
    }

    /** The limit that answered: the refusing (or shadow-refusing) one, else the first limit of the method. */
    public String getLimit() {
        return limit;
    }

    /** How the decision ended; null while it is running. */
    public Outcome getOutcome() {
        return outcome;
    }

    /** For a refusal (shadow too), how long until the refusing limit would grant the permits; else null. */
    public Duration getRetryAfter() {
        return retryAfter;
    }

    /** Whether the refusing limit's fallback method answered the call instead of a refusal. */
    public boolean isFallback() {
        return fallback;
    }

    /**
     * The {@code on-backend-failure} policy that answered because the backend could not decide ({@code FAIL_OPEN}
     * and {@code LOCAL} allow or refuse, {@code FAIL_CLOSED} ends in {@link Outcome#ERROR}); null when it decided.
     */
    public BackendFailurePolicy getFailurePolicy() {
        return failurePolicy;
    }

    /** Why the backend could not decide, when a failure policy answered; else null. */
    public BackendFailureReason getBackendFailure() {
        return backendFailure;
    }

    void fallback() {
        this.fallback = true;
    }

    void failedOver(BackendFailurePolicy policy, BackendFailureReason why) {
        this.failurePolicy = policy;
        this.backendFailure = why;
    }

    void end(Outcome outcome, String limit, Duration retryAfter) {
        this.outcome = outcome;
        if (limit != null) {
            this.limit = limit;
        }
        this.retryAfter = retryAfter;
    }
}
