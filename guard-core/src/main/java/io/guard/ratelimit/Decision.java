package io.guard.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The answer to one request for permits: enough to build 429 answers and the {@code RateLimit} header fields.
 *
 * @param allowed    whether the permits were granted (and consumed)
 * @param remaining  permits still available right after this decision (never negative)
 * @param retryAfter when refused, the exact time until enough permits free up for this request; zero when allowed
 * @param resetAfter time until the quota is fully available again
 * @param limit      the policy's rate
 * @param counted    whether a backend counted the request; false for the answer of a failure policy that counted
 *                   nothing ({@code FAIL_OPEN} while Redis cannot decide), whose {@code remaining}, {@code retryAfter}
 *                   and {@code resetAfter} are then 0: nobody knows what is left
 * @param backendFailure why the backend could not decide when the policy's {@code on-backend-failure} answered instead
 *                   ({@code FAIL_OPEN} or {@code LOCAL}); null when the backend decided. Observations and answers tell
 *                   a limit that is not being enforced by its backend apart with it.
 */
public record Decision(boolean allowed, long remaining, Duration retryAfter, Duration resetAfter, long limit,
                       boolean counted, BackendFailureReason backendFailure) {

    public Decision {
        Objects.requireNonNull(retryAfter, "retryAfter");
        Objects.requireNonNull(resetAfter, "resetAfter");
        if (remaining < 0) {
            throw new IllegalArgumentException("remaining must not be negative but was " + remaining);
        }
    }

    /** A decision a backend counted: what every backend answers. */
    public Decision(boolean allowed, long remaining, Duration retryAfter, Duration resetAfter, long limit) {
        this(allowed, remaining, retryAfter, resetAfter, limit, true, null);
    }

    /** A decision the backend made ({@code counted}) or a failure policy's that counted nothing, before it is known why. */
    public Decision(boolean allowed, long remaining, Duration retryAfter, Duration resetAfter, long limit,
                    boolean counted) {
        this(allowed, remaining, retryAfter, resetAfter, limit, counted, null);
    }

    /** This decision as the answer of a failure policy, given because the backend could not decide for {@code why}. */
    public Decision failedOver(BackendFailureReason why) {
        return new Decision(allowed, remaining, retryAfter, resetAfter, limit, counted, Objects.requireNonNull(why));
    }

    /**
     * The request allowed without being counted (a failure policy's answer while the backend cannot decide): what is
     * left of the quota is unknown, so the answer claims nothing about it.
     *
     * @param limit the policy's rate
     */
    public static Decision allowedUncounted(long limit) {
        return new Decision(true, 0, Duration.ZERO, Duration.ZERO, limit, false);
    }

    /**
     * Which decision answers for a group of limits decided together: the first when all allowed, else the refusal
     * with the longest {@code retryAfter}, the earliest time at which the whole group could pass.
     *
     * @return an index into {@code group}, which must not be empty
     */
    public static int answering(List<Decision> group) {
        int answer = 0;
        for (int i = 0; i < group.size(); i++) {
            Decision decision = group.get(i);
            Decision best = group.get(answer);
            if (!decision.allowed() && (best.allowed() || decision.retryAfter().compareTo(best.retryAfter()) > 0)) {
                answer = i;
            }
        }
        return answer;
    }
}
