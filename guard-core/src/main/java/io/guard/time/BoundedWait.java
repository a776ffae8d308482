package io.guard.time;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a store's answer (Redis behind it) no longer than a bound, for callers that must answer a person (an
 * actuator request) and so cannot wait for a silent server's own timeouts and retries. Every failure comes out as an
 * {@link IllegalStateException} that names the store.
 */
public final class BoundedWait {

    private BoundedWait() {
    }

    /**
     * The value of {@code stage} once it completes within {@code timeout}.
     *
     * @param what the store, as the message names it ({@code "override store"})
     * @throws IllegalStateException when it failed, did not complete in time, or the wait was interrupted (the
     *                               thread's interrupt flag is then set again)
     */
    public static <T> T join(CompletionStage<T> stage, Duration timeout, String what) {
        try {
            return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the " + what + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the " + what + " did not answer within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the " + what, e);
        }
    }
}
