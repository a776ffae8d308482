package io.guard.ratelimit;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * The one place that takes apart a limiter failure: the cause behind the wrappers that asynchronous stages add,
 * the exception a blocking caller should see, and a description fit for logs, events and health, made of class
 * names only, because Redis clients quote the command's arguments (a user's key) in their messages. Also where a
 * backend call that throws instead of failing its stage is made to fail the stage.
 */
public final class Failures {

    private Failures() {
    }

    /** The cause behind any {@link CompletionException} and {@link ExecutionException} wrappers. */
    public static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** What a blocking caller sees for a failed stage: the unchecked cause as is, anything else wrapped. */
    public static RuntimeException rethrowable(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error fatal) {
            throw fatal;
        }
        return new CompletionException(cause);
    }

    /** Class names along the cause chain, e.g. {@code RateLimiterBackendException <- RedisTimeoutException}. */
    public static String describe(Throwable error) {
        StringBuilder names = new StringBuilder(error.getClass().getSimpleName());
        for (Throwable t = error.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            names.append(" <- ").append(t.getClass().getSimpleName());
        }
        return names.toString();
    }

    /** {@code operation}'s stage, or a failed one if it throws instead. */
    static <T> CompletionStage<T> stageOf(Supplier<CompletionStage<T>> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
