package io.guard.spring.aop;

import io.guard.spring.method.FallbackMethods;
import io.guard.spring.method.GuardedMethod;
import io.guard.spring.ratelimit.RateLimitExceededException;

import java.util.Optional;

/**
 * A call one of its method's limits refused, answered by that limit's fallback when the limit names one.
 *
 * <p>Only the refusals of the method's own limits come here, never a {@link RateLimitExceededException} the method
 * itself throws (from a nested limited call): that is the method's outcome, not a refusal of this call.
 *
 * @param guarded the method whose limit refused
 * @param target  the object the method was called on (the fallback runs on it, not on the proxy)
 * @param args    the call's arguments, handed to the fallback
 */
record RefusedCall(GuardedMethod guarded, Object target, Object[] args) {

    /** The fallback's answer to {@code refusal}, or {@code refusal} rethrown when the limit has no fallback. */
    Object answer(RateLimitExceededException refusal) throws Throwable {
        Optional<FallbackMethods.Fallback> fallback = fallbackFor(refusal);
        if (fallback.isEmpty()) {
            throw refusal;
        }
        return fallback.get().invoke(target, args, refusal);
    }

    /** Whether the refusing limit's fallback will answer {@code refusal} (rather than the refusal itself). */
    boolean fallsBack(RateLimitExceededException refusal) {
        return fallbackFor(refusal).isPresent();
    }

    private Optional<FallbackMethods.Fallback> fallbackFor(RateLimitExceededException refusal) {
        return guarded.limits().stream()
                .filter(spec -> spec.fallback() != null && spec.decides(refusal.policyName()))
                .findFirst()
                .flatMap(spec -> spec.fallback().select(refusal));
    }
}
