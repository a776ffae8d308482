package io.guard.breaker.window;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A small power-of-two array of {@link Stripe}s indexed by thread id, so that threads running on different
 * cores usually park their fast successes in different stripes and never write a shared cache line. Stripes
 * are created on first use by the thread that needs one, which also keeps them apart in memory.
 */
final class Stripes<S extends Stripe> {

    private static final int MAX_STRIPES = 64;

    private final AtomicReferenceArray<S> stripes;
    private final int mask;
    private final Supplier<S> factory;

    Stripes(Supplier<S> factory) {
        int wanted = Math.min(MAX_STRIPES, 2 * Runtime.getRuntime().availableProcessors());
        int size = Integer.highestOneBit(Math.max(2, wanted - 1)) << 1;
        this.stripes = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
        this.factory = factory;
    }

    /** The current thread's stripe, locked, or {@code null} when another thread holds it right now. */
    S lockForCurrentThread() {
        @SuppressWarnings("deprecation") // Thread.threadId() arrives in Java 19; getId() is the same number
        int index = (int) Thread.currentThread().getId() & mask;
        S stripe = stripes.get(index);
        if (stripe == null) {
            S created = factory.get();
            stripe = stripes.compareAndSet(index, null, created) ? created : stripes.get(index);
        }
        return stripe.tryLock() ? stripe : null;
    }

    /**
     * Runs {@code drain} on every stripe it can lock without waiting. A stripe held by its owner at this instant
     * is skipped: what it holds was parked concurrently with this drain and is picked up by the next one.
     */
    void drainEach(Consumer<S> drain) {
        for (int i = 0; i < stripes.length(); i++) {
            S stripe = stripes.get(i);
            if (stripe != null && stripe.tryLock()) {
                try {
                    drain.accept(stripe);
                } finally {
                    stripe.unlock();
                }
            }
        }
    }
}
