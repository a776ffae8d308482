package io.guard.breaker;

import io.guard.breaker.window.Snapshot;

/** Refuses every call until a manual transition; records nothing. */
final class ForcedOpenState implements BreakerState {

    @Override
    public State state() {
        return State.FORCED_OPEN;
    }

    @Override
    public BreakerState acquire() {
        return null;
    }

    @Override
    public void release() {
    }

    @Override
    public void record(long durationNanos, boolean failed) {
    }

    @Override
    public Snapshot snapshot() {
        return EMPTY;
    }
}
