package io.guard.breaker;

import io.guard.breaker.window.Snapshot;

/** Calls flow and nothing is recorded, until a manual transition. */
final class DisabledState implements BreakerState {

    @Override
    public State state() {
        return State.DISABLED;
    }

    @Override
    public BreakerState acquire() {
        return this;
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
