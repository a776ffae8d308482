package io.guard.spring.autoconfigure;

import io.guard.breaker.CircuitBreakerConfig.SlidingWindowType;
import io.guard.breaker.State;
import io.guard.spring.bulkhead.AdaptiveLimitProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import java.time.Duration;
import java.util.List;

/**
 * One breaker's settings, named as Resilience4j names them so that configurations carry over. Unset (null) values
 * come from {@code guard.circuit-breaker.defaults}, then from Resilience4j's defaults.
 */
public class BreakerProperties {

    /** Failure rate, in percent, at or above which the breaker opens (default 50). */
    private Float failureRateThreshold;

    /** Slow-call rate, in percent, at or above which the breaker opens (default 100). */
    private Float slowCallRateThreshold;

    /** Calls taking at least this long count as slow (default 60s). */
    private Duration slowCallDurationThreshold;

    /** Whether the sliding window counts the last N calls or the calls of the last N seconds (default COUNT_BASED). */
    private SlidingWindowType slidingWindowType;

    /** Calls (COUNT_BASED) or seconds (TIME_BASED) in the sliding window (default 100). */
    private Integer slidingWindowSize;

    /** Calls needed before the rates are computed (default 100). */
    private Integer minimumNumberOfCalls;

    /** Trial calls allowed in HALF_OPEN (default 10). */
    private Integer permittedNumberOfCallsInHalfOpenState;

    /** Time in OPEN before trial calls are allowed (default 60s). */
    private Duration waitDurationInOpenState;

    /** Each consecutive opening waits this many times longer; 1 means no backoff (default 1). */
    private Double exponentialBackoffMultiplier;

    /** Cap on the backed-off wait in OPEN (default: wait-duration-in-open-state). */
    private Duration exponentialMaxWaitDurationInOpenState;

    /** Whether a timer moves OPEN to HALF_OPEN without waiting for a call (default false). */
    private Boolean automaticTransitionFromOpenToHalfOpenEnabled;

    /** HALF_OPEN goes back to OPEN after this long; 0 waits for the trial calls (default 0). */
    private Duration maxWaitDurationInHalfOpenState;

    /** Exceptions counted as failures, with subclasses; empty counts every exception (default empty). */
    private List<Class<? extends Throwable>> recordExceptions;

    /** Exceptions counted neither as failures nor as successes; wins over record-exceptions (default empty). */
    private List<Class<? extends Throwable>> ignoreExceptions;

    /** Whether the health indicator reports DOWN while this breaker is OPEN (default false). */
    private Boolean healthFailsWhenOpen;

    /**
     * Whether this breaker opening on one instance opens it on every instance with fleet control, for the same wait;
     * see docs/fleet-control.md (default false).
     */
    private Boolean shareOpen;

    /** State a new breaker starts in (default CLOSED). */
    private State initialState;

    /** Where HALF_OPEN goes when max-wait-duration-in-half-open-state passes: OPEN or CLOSED (default OPEN). */
    private State transitionToStateAfterWaitDuration;

    /** Spreads each OPEN wait over wait * [1 - factor, 1 + factor], in [0, 1); 0 is no randomization (default 0). */
    private Double randomizedWaitFactor;

    /** CompletableFuture, Mono and Flux calls still running after this long fail with a TimeoutException, are cancelled and count as failures; 0 is no timeout (default 0). */
    private Duration timeout;

    /** Bulkhead: at most this many calls of this breaker run at once, the next is refused like an open breaker; 0 is no bulkhead; 'adaptive' is a limit that moves with the latency (adaptive-limit.*) (default: the annotation's maxConcurrentCalls, else 0). */
    private String maxConcurrentCalls;

    /** The adaptive limit's algorithm and settings, when max-concurrent-calls is 'adaptive' (default: guard.circuit-breaker.defaults.adaptive-limit, else Gradient2 from 20 calls within [1, 200]). */
    @NestedConfigurationProperty
    private AdaptiveLimitProperties adaptiveLimit;

    /** Whether the exception of a refused call (CallNotPermittedException) carries a stack trace, as Resilience4j's does unless told otherwise (default false). */
    private Boolean writableStackTraceEnabled;

    public State getInitialState() {
        return initialState;
    }

    public void setInitialState(State initialState) {
        this.initialState = initialState;
    }

    public State getTransitionToStateAfterWaitDuration() {
        return transitionToStateAfterWaitDuration;
    }

    public void setTransitionToStateAfterWaitDuration(State transitionToStateAfterWaitDuration) {
        this.transitionToStateAfterWaitDuration = transitionToStateAfterWaitDuration;
    }

    public Double getRandomizedWaitFactor() {
        return randomizedWaitFactor;
    }

    public void setRandomizedWaitFactor(Double randomizedWaitFactor) {
        this.randomizedWaitFactor = randomizedWaitFactor;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public Boolean getWritableStackTraceEnabled() {
        return writableStackTraceEnabled;
    }

    public void setWritableStackTraceEnabled(Boolean writableStackTraceEnabled) {
        this.writableStackTraceEnabled = writableStackTraceEnabled;
    }

    public String getMaxConcurrentCalls() {
        return maxConcurrentCalls;
    }

    public void setMaxConcurrentCalls(String maxConcurrentCalls) {
        this.maxConcurrentCalls = maxConcurrentCalls;
    }

    public AdaptiveLimitProperties getAdaptiveLimit() {
        return adaptiveLimit;
    }

    public void setAdaptiveLimit(AdaptiveLimitProperties adaptiveLimit) {
        this.adaptiveLimit = adaptiveLimit;
    }

    public Float getFailureRateThreshold() {
        return failureRateThreshold;
    }

    public void setFailureRateThreshold(Float failureRateThreshold) {
        this.failureRateThreshold = failureRateThreshold;
    }

    public Float getSlowCallRateThreshold() {
        return slowCallRateThreshold;
    }

    public void setSlowCallRateThreshold(Float slowCallRateThreshold) {
        this.slowCallRateThreshold = slowCallRateThreshold;
    }

    public Duration getSlowCallDurationThreshold() {
        return slowCallDurationThreshold;
    }

    public void setSlowCallDurationThreshold(Duration slowCallDurationThreshold) {
        this.slowCallDurationThreshold = slowCallDurationThreshold;
    }

    public SlidingWindowType getSlidingWindowType() {
        return slidingWindowType;
    }

    public void setSlidingWindowType(SlidingWindowType slidingWindowType) {
        this.slidingWindowType = slidingWindowType;
    }

    public Integer getSlidingWindowSize() {
        return slidingWindowSize;
    }

    public void setSlidingWindowSize(Integer slidingWindowSize) {
        this.slidingWindowSize = slidingWindowSize;
    }

    public Integer getMinimumNumberOfCalls() {
        return minimumNumberOfCalls;
    }

    public void setMinimumNumberOfCalls(Integer minimumNumberOfCalls) {
        this.minimumNumberOfCalls = minimumNumberOfCalls;
    }

    public Integer getPermittedNumberOfCallsInHalfOpenState() {
        return permittedNumberOfCallsInHalfOpenState;
    }

    public void setPermittedNumberOfCallsInHalfOpenState(Integer permittedNumberOfCallsInHalfOpenState) {
        this.permittedNumberOfCallsInHalfOpenState = permittedNumberOfCallsInHalfOpenState;
    }

    public Duration getWaitDurationInOpenState() {
        return waitDurationInOpenState;
    }

    public void setWaitDurationInOpenState(Duration waitDurationInOpenState) {
        this.waitDurationInOpenState = waitDurationInOpenState;
    }

    public Double getExponentialBackoffMultiplier() {
        return exponentialBackoffMultiplier;
    }

    public void setExponentialBackoffMultiplier(Double exponentialBackoffMultiplier) {
        this.exponentialBackoffMultiplier = exponentialBackoffMultiplier;
    }

    public Duration getExponentialMaxWaitDurationInOpenState() {
        return exponentialMaxWaitDurationInOpenState;
    }

    public void setExponentialMaxWaitDurationInOpenState(Duration exponentialMaxWaitDurationInOpenState) {
        this.exponentialMaxWaitDurationInOpenState = exponentialMaxWaitDurationInOpenState;
    }

    public Boolean getAutomaticTransitionFromOpenToHalfOpenEnabled() {
        return automaticTransitionFromOpenToHalfOpenEnabled;
    }

    public void setAutomaticTransitionFromOpenToHalfOpenEnabled(Boolean automaticTransitionFromOpenToHalfOpenEnabled) {
        this.automaticTransitionFromOpenToHalfOpenEnabled = automaticTransitionFromOpenToHalfOpenEnabled;
    }

    public Duration getMaxWaitDurationInHalfOpenState() {
        return maxWaitDurationInHalfOpenState;
    }

    public void setMaxWaitDurationInHalfOpenState(Duration maxWaitDurationInHalfOpenState) {
        this.maxWaitDurationInHalfOpenState = maxWaitDurationInHalfOpenState;
    }

    public List<Class<? extends Throwable>> getRecordExceptions() {
        return recordExceptions;
    }

    public void setRecordExceptions(List<Class<? extends Throwable>> recordExceptions) {
        this.recordExceptions = recordExceptions;
    }

    public List<Class<? extends Throwable>> getIgnoreExceptions() {
        return ignoreExceptions;
    }

    public void setIgnoreExceptions(List<Class<? extends Throwable>> ignoreExceptions) {
        this.ignoreExceptions = ignoreExceptions;
    }

    public Boolean getHealthFailsWhenOpen() {
        return healthFailsWhenOpen;
    }

    public void setHealthFailsWhenOpen(Boolean healthFailsWhenOpen) {
        this.healthFailsWhenOpen = healthFailsWhenOpen;
    }

    public Boolean getShareOpen() {
        return shareOpen;
    }

    public void setShareOpen(Boolean shareOpen) {
        this.shareOpen = shareOpen;
    }
}
