package io.guard.breaker.window;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A per-thread-group parking place for fast successes that do not need to touch a window's shared state yet.
 * Guarded by a try-lock that its owning thread nearly always gets at the first attempt; a thread that does not
 * get it records through the window's lock instead, so nobody ever waits for a stripe.
 *
 * <p>The padding fields of {@link StripePadding} keep the lock and counters of two stripes off one cache line
 * (fields of a superclass are laid out before those of its subclasses).
 */
abstract class Stripe extends StripePadding {

    private static final VarHandle LOCKED;

    static {
        try {
            LOCKED = MethodHandles.lookup().findVarHandle(Stripe.class, "locked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // read and written through LOCKED
    private volatile int locked;

    /** The probe of the thread that last parked here (written and read under the lock). */
    Stripes.Probe owner;

    final boolean tryLock() {
        return LOCKED.compareAndSet(this, 0, 1);
    }

    final void unlock() {
        LOCKED.setRelease(this, 0);
    }
}
