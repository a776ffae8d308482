package io.guard.ratelimit.lease;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.lease.LeaseSource.Unused;
import io.guard.time.GuardClock;
import io.guard.time.Scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Where a lease's unused permits go when it ends: back to the shared quota when its lifetime is over (a timer per
 * lease), when the policy changed (a fixed window only), or nowhere (a reset, a failed give-back); and the count of
 * leases taken and of permits given back or lost, which {@link LeaseStats} shows.
 */
final class LeaseReturns {

    private final LeaseSource source;
    private final Scheduler scheduler;
    private final GuardClock clock;
    private final LeaseCounts counts = new LeaseCounts();

    LeaseReturns(LeaseSource source, Scheduler scheduler, GuardClock clock) {
        this.source = source;
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.clock = clock;
    }

    void taken(RateLimitPolicy policy) {
        counts.of(policy.name()).taken.increment();
    }

    /** {@code previous} of {@code policy} went to the store with a take, which gave {@code givenBack} of them back. */
    void settled(RateLimitPolicy policy, Unused previous, long givenBack) {
        LeaseCounts.Of of = counts.of(policy.name());
        of.returned.add(givenBack);
        of.expired.add(previous.permits() - givenBack);
    }

    /** Unused permits of {@code policy} that will never go back. */
    void lost(RateLimitPolicy policy, long permits) {
        if (permits > 0) {
            counts.of(policy.name()).expired.add(permits);
        }
    }

    /**
     * Makes {@code lease} the slot's, to be given back at the end of its lifetime; lost instead if the slot's leases
     * were revoked since its take was sent ({@code generation} then).
     */
    void install(LeaseSlot slot, Lease lease, long generation) {
        if (slot.generation.get() != generation) {
            lost(lease.policy, lease.close()); // revoked while the take was in flight
            return;
        }
        slot.lease.set(lease);
        if (slot.generation.get() != generation && slot.lease.compareAndSet(lease, null)) {
            lost(lease.policy, lease.close());
        } else {
            expireLater(slot, lease);
        }
    }

    /** Gives the lease back at the end of its lifetime, if it is still the slot's then. */
    void expireLater(LeaseSlot slot, Lease lease) {
        scheduler.schedule(Duration.ofNanos(Math.max(0, lease.expiresAt - clock.nanoTime())),
                () -> expire(slot, lease));
    }

    /** A lease's lifetime is over: if it is still the slot's, close it and give its unused permits back. */
    private void expire(LeaseSlot slot, Lease lease) {
        if (slot.lease.get() != lease || !slot.hold()) {
            return; // replaced (its permits went back with the next take) or another call is at it
        }
        if (!slot.lease.compareAndSet(lease, null)) {
            slot.release();
            return;
        }
        giveBack(slot, lease, new Unused(lease.close(), lease.takenAt));
    }

    /** Gives {@code unused} of {@code lease} back on its own, then releases the slot (held by the caller). */
    void giveBack(LeaseSlot slot, Lease lease, Unused unused) {
        if (lease == null || unused.permits() == 0) {
            slot.release();
            return;
        }
        giveBack(lease, unused).whenComplete((given, error) -> slot.release());
    }

    CompletableFuture<Long> giveBack(Lease lease, Unused unused) {
        if (unused.permits() == 0) {
            return CompletableFuture.completedFuture(0L);
        }
        CompletionStage<Long> given;
        try {
            given = source.giveBack(lease.policy, lease.key, unused);
        } catch (RuntimeException e) {
            given = CompletableFuture.failedFuture(e);
        }
        return given.toCompletableFuture().handle((permits, error) -> {
            long back = error == null && permits != null ? permits : 0;
            LeaseCounts.Of of = counts.of(lease.policy.name());
            of.returned.add(back);
            of.expired.add(unused.permits() - back);
            return back;
        });
    }

    /**
     * A lease of a limit whose policy changed since: a fixed window's permits go back (the script only gives back
     * into the lease's own window, whatever the new policy); a token bucket's are dropped, since its time step
     * may have changed with the rate.
     */
    void dropChanged(Lease old, long unused) {
        if (unused > 0 && old.policy.algorithm() == Algorithm.FIXED_WINDOW) {
            giveBack(old, new Unused(unused, old.takenAt));
        } else {
            lost(old.policy, unused);
        }
    }

    /** Gives every lease in hand back, waiting up to {@code waitMillis} for the store. */
    void giveBackAll(LeaseSlots slots, long waitMillis) {
        List<CompletableFuture<Long>> giving = new ArrayList<>();
        for (LeaseSlot slot : slots.all()) {
            if (slot.hold()) {
                Lease lease = slot.lease.getAndSet(null);
                if (lease != null) {
                    giving.add(giveBack(lease, new Unused(lease.close(), lease.takenAt)));
                }
            }
        }
        try {
            CompletableFuture.allOf(giving.toArray(CompletableFuture[]::new)).get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // what did not go back in time was counted as expired by giveBack, or will be when it fails
        }
    }

    /** Drops the leases of {@code tag} (every limit for {@code null}) without giving them back: they are lost. */
    void revoke(LeaseSlots slots, String tag) {
        slots.each(tag, slot -> {
            slot.generation.incrementAndGet();
            slot.refused = false;
            Lease lease = slot.lease.getAndSet(null);
            if (lease != null) {
                lost(lease.policy, lease.close());
            }
        });
    }

    LeaseStats stats(LeaseSlots slots) {
        long taken = 0;
        long returned = 0;
        long expired = 0;
        for (LeaseCounts.Of of : counts.all().values()) {
            taken += of.taken.sum();
            returned += of.returned.sum();
            expired += of.expired.sum();
        }
        long held = 0;
        for (LeaseSlot slot : slots.all()) {
            Lease lease = slot.lease.get();
            held += lease == null ? 0 : lease.left();
        }
        return new LeaseStats(taken, returned, expired, held, slots.size());
    }

    /**
     * The counts of limit {@code name} (zero if it never leased here); its {@code keys} are the keys holding one of its
     * leases now.
     */
    LeaseStats stats(LeaseSlots slots, String name) {
        LeaseCounts.Of of = counts.all().get(name);
        long held = 0;
        int keys = 0;
        for (LeaseSlot slot : slots.all()) {
            Lease lease = slot.lease.get();
            if (lease != null && lease.policy.name().equals(name)) {
                held += lease.left();
                keys++;
            }
        }
        return of == null ? new LeaseStats(0, 0, 0, held, keys)
                : new LeaseStats(of.taken.sum(), of.returned.sum(), of.expired.sum(), held, keys);
    }

    /** Tells {@code listener} the name of each limit that has leased, now and as each first leases. */
    void onLimitLeased(Consumer<String> listener) {
        counts.listen(listener);
    }
}
