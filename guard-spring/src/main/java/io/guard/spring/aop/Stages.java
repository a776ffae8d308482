package io.guard.spring.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/** Small helpers for CompletionStage-returning methods. */
final class Stages {

    private Stages() {
    }

    /** The error a caller should see: the cause of the wrappers that stage composition adds. */
    static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
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
