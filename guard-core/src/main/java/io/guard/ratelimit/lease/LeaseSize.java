package io.guard.ratelimit.lease;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;

import java.util.Locale;

/**
 * How many permits an instance takes from a limit's shared quota at once: {@link #OFF} (every decision asks the
 * store, the default), a fixed size, or {@link #AUTO} (sized from this instance's recent rate for the key and the
 * quota left). Written {@code off}, {@code auto} or a number of permits in configuration.
 *
 * @param auto  whether the size follows the demand ({@code size} is then unused)
 * @param fixed the permits per lease for a fixed size; 1 (exact) for {@link #OFF}
 */
public record LeaseSize(boolean auto, long fixed) {

    /** Exact: one round trip per decision. */
    public static final LeaseSize OFF = new LeaseSize(false, 1);
    /** Sized per key from the demand, down to exact when the key is cold or its quota nearly spent. */
    public static final LeaseSize AUTO = new LeaseSize(true, 0);

    /** Algorithms whose leased permits keep a stated bound; SLIDING_LOG's records would carry the lease's time. */
    public static boolean supports(Algorithm algorithm) {
        return algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.FIXED_WINDOW;
    }

    /**
     * Reads {@code off}, {@code auto} or a positive number of permits.
     *
     * @throws IllegalArgumentException naming the value when it is none of them
     */
    public static LeaseSize parse(String text) {
        String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        switch (value) {
            case "", "off", "false", "1" -> {
                return OFF;
            }
            case "auto" -> {
                return AUTO;
            }
            default -> {
                try {
                    long size = Long.parseLong(value);
                    if (size >= 1) {
                        return new LeaseSize(false, size);
                    }
                } catch (NumberFormatException e) {
                    // answered below
                }
                throw new IllegalArgumentException("lease must be 'off', 'auto' or a number of permits of at least 1"
                        + " but was '" + text + "'");
            }
        }
    }

    /** Whether decisions are exact (no lease is ever taken). */
    public boolean off() {
        return !auto && fixed <= 1;
    }

    /**
     * Why {@code policy} cannot be leased this way, or {@code null} when it can: the algorithm must be TOKEN_BUCKET
     * or FIXED_WINDOW, and a fixed size may not exceed the most permits one decision may take.
     */
    public String problemWith(RateLimitPolicy policy) {
        if (off()) {
            return null;
        }
        if (!supports(policy.algorithm())) {
            return "lease '" + this + "' needs algorithm TOKEN_BUCKET or FIXED_WINDOW, but limit '" + policy.name()
                    + "' uses " + policy.algorithm() + ", whose records would carry the time of the lease, not of"
                    + " the use (use lease: off, or another algorithm)";
        }
        if (!auto && fixed > policy.maxPermits()) {
            return "lease " + fixed + " of limit '" + policy.name() + "' exceeds the most permits it can grant at"
                    + " once (" + policy.maxPermits() + ")";
        }
        return null;
    }

    @Override
    public String toString() {
        return auto ? "auto" : off() ? "off" : Long.toString(fixed);
    }
}
