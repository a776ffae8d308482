package io.guard.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A permission as a handle: the state that granted it, when the call started, and the in-flight cell that counts
 * it as running. The first answer wins (a CAS), so a timeout and a completion that race count the call once.
 */
final class CallPermit implements CircuitBreaker.Permit {

    private static final VarHandle ANSWERED;

    static {
        try {
            ANSWERED = MethodHandles.lookup().findVarHandle(CallPermit.class, "answered", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final DecoratingCircuitBreaker breaker;
    private final BreakerState granting;
    private final long startNanos;
    private final int[] cell;
    @SuppressWarnings("unused") // written through ANSWERED
    private volatile boolean answered;
    private volatile Runnable cancelTimer;

    CallPermit(DecoratingCircuitBreaker breaker, BreakerState granting, long startNanos) {
        this.breaker = breaker;
        this.granting = granting;
        this.startNanos = startNanos;
        this.cell = breaker.started(startNanos);
    }

    @Override
    public long startNanos() {
        return startNanos;
    }

    @Override
    public State state() {
        return granting.state();
    }

    @Override
    public void onSuccess() {
        if (answer()) {
            breaker.onSuccess(breaker.currentTimeNanos() - startNanos);
        }
    }

    @Override
    public void onResult(Object result) {
        if (answer()) {
            breaker.onResult(breaker.currentTimeNanos() - startNanos, result);
        }
    }

    @Override
    public boolean onError(Throwable error) {
        if (answer()) {
            return breaker.onError(granting, breaker.currentTimeNanos() - startNanos, error);
        }
        return breaker.recordsAsFailure(error);
    }

    @Override
    public void release() {
        if (answer()) {
            breaker.release(granting);
        }
    }

    @Override
    public void whenTimedOut(Consumer<TimeoutException> action) {
        Duration timeout = breaker.config().timeout();
        if (timeout.isZero()) {
            return;
        }
        cancelTimer = breaker.schedule(timeout, () -> {
            TimeoutException error = new TimeoutException("circuit breaker '" + breaker.name()
                    + "': call still running after " + timeout.toMillis() + " ms (timeout)");
            if (timeOut(error)) {
                action.accept(error);
            }
        });
        if (answered) {
            cancelTimer.run(); // answered while the timer was being armed
        }
    }

    @Override
    public void onTimeout(TimeoutException error) {
        timeOut(error);
    }

    /** Records the call as a timed-out failure, whatever the exception rules say; false if already answered. */
    boolean timeOut(TimeoutException error) {
        if (!answer()) {
            return false;
        }
        breaker.onTimeout(breaker.currentTimeNanos() - startNanos, error);
        return true;
    }

    private boolean answer() {
        if (!ANSWERED.compareAndSet(this, false, true)) {
            return false;
        }
        breaker.finished(cell, startNanos);
        Runnable cancel = cancelTimer;
        if (cancel != null) {
            cancel.run();
        }
        return true;
    }

    @Override
    public String toString() {
        return "Permit[" + breaker.name() + ", granted in " + granting.state() + "]";
    }
}
