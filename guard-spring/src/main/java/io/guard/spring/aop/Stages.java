package io.guard.spring.aop;

import io.guard.ratelimit.Failures;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Small helpers for CompletionStage-returning methods. */
final class Stages {

    private Stages() {
    }

    /** The error a caller should see: the cause of the wrappers that stage composition adds. */
    static Throwable unwrap(Throwable error) {
        return Failures.unwrap(error);
    }

    /** Completes {@code target} as {@code source} completes, with unwrapped errors. */
    static void pipe(CompletionStage<?> source, CompletableFuture<Object> target) {
        source.whenComplete((value, error) -> {
            if (error != null) {
                target.completeExceptionally(unwrap(error));
            } else {
                target.complete(value);
            }
        });
    }

    /** A method's result as a stage: a null stage counts as a stage completed with null. */
    static CompletionStage<?> asStage(Object result) {
        return result == null ? CompletableFuture.completedFuture(null) : (CompletionStage<?>) result;
    }
}
