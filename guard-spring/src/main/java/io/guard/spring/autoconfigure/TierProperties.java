package io.guard.spring.autoconfigure;

import io.guard.ratelimit.Algorithm;
import io.guard.spring.ratelimit.LimitSettings;

import java.time.Duration;

/**
 * How large a quota is: rate, interval, algorithm and burst. All that one tier of a limit may set (what it leaves unset
 * comes from the limit: its properties, annotation, then defaults), and the first part of every limit's settings
 * ({@link LimitProperties}).
 */
public class TierProperties {

    /** Permits per interval. */
    private Long rate;

    /** The window or refill period, e.g. 60s or 500ms (built-in default 1s). */
    private Duration interval;

    /** How permits are counted: SLIDING_LOG (exact, the built-in default), TOKEN_BUCKET or FIXED_WINDOW. */
    private Algorithm algorithm;

    /** TOKEN_BUCKET only: the most permits that can be taken at once (default: rate). */
    private Long burst;

    public LimitSettings toSettings() {
        return new LimitSettings(rate, interval, algorithm, burst, null, null, null, null, null, null, null, null,
                null, null);
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
