package io.guard.ratelimit.lease;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Leases taken and unused permits given back or lost, per limit: which limit's leases cost what in under-admission.
 * A limit appears with its first count, and the listener hears of it once (for meters tagged with its name).
 */
final class LeaseCounts {

    /** One limit's counts. */
    static final class Of {
        final LongAdder taken = new LongAdder();
        final LongAdder returned = new LongAdder();
        final LongAdder expired = new LongAdder();
    }

    private final Map<String, Of> limits = new ConcurrentHashMap<>();
    private volatile Consumer<String> listener = name -> { };

    /** The counts of limit {@code name}, made (and announced) on its first use. */
    Of of(String name) {
        Of counts = limits.get(name);
        if (counts == null) {
            Of made = new Of();
            counts = limits.putIfAbsent(name, made);
            if (counts == null) {
                counts = made;
                listener.accept(name);
            }
        }
        return counts;
    }

    /** Tells {@code listener} of every limit counted so far, and from now on of each new one. */
    void listen(Consumer<String> listener) {
        this.listener = listener;
        limits.keySet().forEach(listener);
    }

    /** Every limit counted so far, with its counts. */
    Map<String, Of> all() {
        return limits;
    }
}
