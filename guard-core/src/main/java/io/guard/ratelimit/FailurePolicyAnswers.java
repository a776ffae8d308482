package io.guard.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What each policy's {@link BackendFailurePolicy} answers in a {@link FailoverRateLimiter} when the primary backend
 * cannot decide: {@code FAIL_OPEN} allows, {@code FAIL_CLOSED} fails with the backend's failure, {@code LOCAL} asks the
 * in-process backend. Every answer carries the failure, so that it is counted as an error, not as a permit; a
 * {@code FAIL_OPEN} answer is {@link Decision#allowedUncounted uncounted}, claiming nothing about the quota.
 */
final class FailurePolicyAnswers {

    private final RateLimiter local;

    /** @param local decides {@code LOCAL} policies */
    FailurePolicyAnswers(RateLimiter local) {
        this.local = local;
    }

    /** The answer to one request whose decision {@code failure} prevented. */
    CompletionStage<BackendOutcome> answer(RateLimitPolicy policy, String key, long permits,
                                           RateLimiterBackendException failure) {
        return switch (policy.onBackendFailure()) {
            case FAIL_OPEN -> CompletableFuture.completedFuture(new BackendOutcome(
                    Decision.allowedUncounted(policy.rate()), failure));
            case FAIL_CLOSED -> CompletableFuture.failedFuture(failure);
            case LOCAL -> local.decide(policy, key, permits)
                    .thenApply(outcome -> new BackendOutcome(outcome.decision(), failure));
        };
    }

    /**
     * The answer to a group: any {@code FAIL_CLOSED} limit fails it, {@code FAIL_OPEN} limits allow, and the
     * {@code LOCAL} limits are decided in process, all-or-nothing among themselves.
     */
    CompletionStage<List<BackendOutcome>> answerAll(List<RateLimitRequest> requests,
                                                    RateLimiterBackendException failure) {
        if (requests.stream().anyMatch(r -> r.policy().onBackendFailure() == BackendFailurePolicy.FAIL_CLOSED)) {
            return CompletableFuture.failedFuture(failure);
        }
        List<RateLimitRequest> local = requests.stream()
                .filter(r -> r.policy().onBackendFailure() == BackendFailurePolicy.LOCAL).toList();
        CompletionStage<List<BackendOutcome>> decidedLocally = local.isEmpty()
                ? CompletableFuture.completedFuture(List.of()) : this.local.decideAll(local);
        return decidedLocally.thenApply(localOutcomes -> {
            List<BackendOutcome> outcomes = new ArrayList<>(requests.size());
            int next = 0;
            for (RateLimitRequest request : requests) {
                Decision decision = request.policy().onBackendFailure() == BackendFailurePolicy.LOCAL
                        ? localOutcomes.get(next++).decision() : Decision.allowedUncounted(request.policy().rate());
                outcomes.add(new BackendOutcome(decision, failure));
            }
            return outcomes;
        });
    }
}
