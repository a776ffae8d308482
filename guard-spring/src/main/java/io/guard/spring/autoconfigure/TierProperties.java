package io.guard.spring.autoconfigure;

import io.guard.ratelimit.Algorithm;
import io.guard.spring.aop.LimitSettings;

import java.time.Duration;

/** One tier of a limit; what it leaves unset comes from the limit (its properties, annotation, then defaults). */
public class TierProperties {

    /** Permits per interval for calls of this tier. */
    private Long rate;

    /** The window or refill period for calls of this tier, e.g. 60s. */
    private Duration interval;

    /** How permits are counted for calls of this tier: SLIDING_LOG, TOKEN_BUCKET or FIXED_WINDOW. */
    private Algorithm algorithm;

    /** TOKEN_BUCKET only: the most permits a call of this tier can take at once (default: rate). */
    private Long burst;

    LimitSettings toSettings() {
        return new LimitSettings(rate, interval, algorithm, burst, null, null, null, null, null, null, null);
    }

    public Long getRate() {
        return rate;
    }

    public void setRate(Long rate) {
        this.rate = rate;
    }

    public Duration getInterval() {
        return interval;
    }

    public void setInterval(Duration interval) {
        this.interval = interval;
    }

    public Algorithm getAlgorithm() {
        return algorithm;
    }

    public void setAlgorithm(Algorithm algorithm) {
        this.algorithm = algorithm;
    }

    public Long getBurst() {
        return burst;
    }

    public void setBurst(Long burst) {
        this.burst = burst;
    }
}
