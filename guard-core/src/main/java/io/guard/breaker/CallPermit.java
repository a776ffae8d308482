package io.guard.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeoutException;

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
    public void onError(Throwable error) {
        if (answer()) {
            breaker.onError(granting, breaker.currentTimeNanos() - startNanos, error);
        }
    }

    @Override
    public void release() {
        if (answer()) {
            breaker.release(granting);
        }
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
        return true;
    }

    @Override
    public String toString() {
        return "Permit[" + breaker.name() + ", granted in " + granting.state() + "]";
    }
}
