package io.guard.spring.bulkhead;

import java.time.Duration;

/**
 * The settings of an adaptive limit ({@code adaptive-limit.*} of a breaker whose {@code max-concurrent-calls} is
 * {@code adaptive}, and of {@code guard.server-limit}). Unset (null) values take the defaults named here; a setting
 * that the chosen algorithm does not have stops start-up rather than being silently ignored.
 */
public class AdaptiveLimitProperties {

    /** The algorithm that moves the limit: GRADIENT2, VEGAS or AIMD (default GRADIENT2). */
    private AdaptiveAlgorithm algorithm;

    /** Calls allowed at once before the first sample (default 20). */
    private Integer initialLimit;

    /** The limit never falls below this; GRADIENT2 and AIMD only (default 1). */
    private Integer minLimit;

    /** The limit never rises above this (default 200). */
    private Integer maxLimit;

    /** How much of each new estimate is taken, in (0, 1]; GRADIENT2 and VEGAS only (default 0.2 for GRADIENT2, 1 for VEGAS). */
    private Double smoothing;

    /** How much slower than the long-term latency calls may be before the limit falls, at least 1; GRADIENT2 only (default 1.5). */
    private Double rttTolerance;

    /** The factor the limit is multiplied by on a drop, in [0.5, 1); AIMD and VEGAS only (default 0.9). */
    private Double backoffRatio;

    /** Calls slower than this count as drops; AIMD only (default 5s). */
    private Duration timeout;

    /** The Retry-After of a refusal: how soon the limit may have moved; 0 sends none (default 1s). */
    private Duration retryAfter;

    public AdaptiveAlgorithm getAlgorithm() {
        return algorithm;
    }

    public void setAlgorithm(AdaptiveAlgorithm algorithm) {
        this.algorithm = algorithm;
    }

    public Integer getInitialLimit() {
        return initialLimit;
    }

    public void setInitialLimit(Integer initialLimit) {
        this.initialLimit = initialLimit;
    }

    public Integer getMinLimit() {
        return minLimit;
    }

    public void setMinLimit(Integer minLimit) {
        this.minLimit = minLimit;
    }

    public Integer getMaxLimit() {
        return maxLimit;
    }

    public void setMaxLimit(Integer maxLimit) {
        this.maxLimit = maxLimit;
    }

    public Double getSmoothing() {
        return smoothing;
    }

    public void setSmoothing(Double smoothing) {
        this.smoothing = smoothing;
    }

    public Double getRttTolerance() {
        return rttTolerance;
    }

    public void setRttTolerance(Double rttTolerance) {
        this.rttTolerance = rttTolerance;
    }

    public Double getBackoffRatio() {
        return backoffRatio;
    }

    public void setBackoffRatio(Double backoffRatio) {
        this.backoffRatio = backoffRatio;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public Duration getRetryAfter() {
        return retryAfter;
    }

    public void setRetryAfter(Duration retryAfter) {
        this.retryAfter = retryAfter;
    }
}
