package io.guard.breaker.window;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A small power-of-two array of {@link Stripe}s, so that threads running on different cores usually park their
 * fast successes in different stripes and never write a shared cache line.
 *
 * <p>Each thread keeps a sticky probe (its preferred index). A thread that finds its stripe busy, or last used by
 * another thread, moves its probe for the next call, as {@code LongAdder}'s cells do; two hot threads that
 * started on one stripe are thus apart after a few calls, instead of sharing a stripe forever because their
 * thread ids happened to collide. Stripes are created on first use by the thread that needs one, which also
 * keeps them apart in memory.
 */
final class Stripes<S extends Stripe> {

    private static final int MAX_STRIPES = 64;

    private final AtomicReferenceArray<S> stripes;
    private final int mask;
    private final Supplier<S> factory;
    private final ThreadLocal<Probe> probes;

    Stripes(Supplier<S> factory) {
        this(factory, Math.min(MAX_STRIPES, 2 * Runtime.getRuntime().availableProcessors()), Stripes::seed);
    }

    /** For tests: {@code wanted} stripes (rounded up to a power of two, at least 2) and a chosen first probe. */
    Stripes(Supplier<S> factory, int wanted, Supplier<Integer> firstProbe) {
        int size = Integer.highestOneBit(Math.max(2, wanted - 1)) << 1;
        this.stripes = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
        this.factory = factory;
        this.probes = ThreadLocal.withInitial(() -> new Probe(firstProbe.get()));
    }

    /** The current thread's stripe, locked, or {@code null} when another thread holds it right now. */
    S lockForCurrentThread() {
        Probe probe = probes.get();
        int index = probe.value & mask;
        S stripe = stripes.get(index);
        if (stripe == null) {
            S created = factory.get();
            stripe = stripes.compareAndSet(index, null, created) ? created : stripes.get(index);
        }
        if (!stripe.tryLock()) {
            probe.move();
            return null;
        }
        if (stripe.owner != probe) {
            if (stripe.owner != null) {
                probe.move(); // shared with another thread: try elsewhere from the next call on
            }
            stripe.owner = probe;
        }
        return stripe;
    }

    /** Which stripe the current thread would use now; for tests. */
    int indexForCurrentThread() {
        return probes.get().value & mask;
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

    @SuppressWarnings("deprecation") // Thread.threadId() arrives in Java 19; getId() is the same number
    private static Integer seed() {
        long id = Thread.currentThread().getId();
        return (int) (id * 0x9E3779B97F4A7C15L >>> 32);
    }

    /** One thread's preferred stripe index; its identity also marks the stripe's last user. */
    static final class Probe {
        private int value;

        Probe(int value) {
            this.value = value;
        }

        /** Marsaglia xorshift: a cheap, well-spread next index. */
        void move() {
            int x = value == 0 ? 0x9E3779B9 : value;
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            value = x;
        }
    }
}
