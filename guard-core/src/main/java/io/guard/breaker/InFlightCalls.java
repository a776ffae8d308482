package io.guard.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Counts the calls a breaker admitted that have not reported yet, by when they started, so that a call hanging
 * past slow-call-duration-threshold can count as slow before it ends: a downstream that stops answering must open
 * the breaker, not hold every permit forever unnoticed.
 *
 * <p>Time is cut into generations of {@code 2^shift} ns, at most an eighth of the threshold; a call of a
 * generation at least {@link #hungAfter} generations old has surely run past the threshold, so a hang is seen at
 * most a quarter of the threshold late. Counts are cumulative per generation slot (64 slots, reused round-robin),
 * started and finished apart, so no count ever has to be moved or reset: a slot's running calls are its starts
 * minus its finishes whatever generations used it. A call hanging for more than 64 generations (4 to 8 times
 * the threshold) shares its slot with newer calls and is then counted only while that slot is old enough.
 *
 * <p>Cost on the hot path, which is why it is built this way: each thread counts in a cell of its own, with plain
 * (release) stores that no other thread writes, so a synchronous call pays one thread-local lookup and two
 * uncontended stores, no atomic instruction. A call that ends on another thread (an asynchronous permit) adds its
 * finish with an atomic add to a column of the starting cell kept for that. The first 64 threads of a breaker get
 * a cell; later threads (thread churn, virtual threads) share one cell with atomic adds, so memory stays bounded
 * at the price of speed for them only.
 *
 * <p>Looking for hung calls is kept off the per-call path too: once per generation one caller ({@link #advance})
 * sums the one slot that has just grown old enough over every cell, and re-sums the slots already known to hold
 * hung calls; the slots with hung calls are kept as a 64-bit mask. {@link #hung} then costs one volatile read
 * while nothing hangs, which is the common case, and sums only the marked slots while something does.
 */
final class InFlightCalls {

    static final int SLOTS = 64;
    private static final int MAX_OWNED_CELLS = 64;
    private static final int PAD = 16; // ints before and after the counters: two cells' counters never share a line
    private static final int STARTED = PAD;
    private static final int FINISHED = PAD + SLOTS;
    private static final int FINISHED_ELSEWHERE = PAD + 2 * SLOTS;
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(int[].class);

    private final int shift;
    private final int hungAfter;
    private final AtomicReferenceArray<int[]> owned = new AtomicReferenceArray<>(MAX_OWNED_CELLS);
    private final AtomicInteger ownedCount = new AtomicInteger();
    private final int[] shared = newCell();
    private final ThreadLocal<int[]> cells = ThreadLocal.withInitial(this::register);
    private volatile long checkedGeneration = Long.MIN_VALUE;
    private volatile long hungSlots; // bit i: slot i held calls running past the threshold at the last advance
    private long markedUpTo = Long.MIN_VALUE / 2; // the newest generation whose slot markHungSlots has looked at

    /** @param slowNanos slow-call-duration-threshold: a call running longer is hung */
    InFlightCalls(long slowNanos) {
        long width = Math.max(1, slowNanos / 8);
        this.shift = 63 - Long.numberOfLeadingZeros(width);
        long generation = 1L << shift;
        this.hungAfter = (int) Math.min(SLOTS, (slowNanos + generation - 1) / generation + 1);
    }

    /** Counts a call started at {@code startNanos} as running; returns the cell to finish it with. */
    int[] start(long startNanos) {
        int[] cell = cells.get();
        increment(cell, STARTED + slot(startNanos));
        return cell;
    }

    /** The call {@link #start} counted in {@code cell} has reported, on the thread that started it. */
    void finishOnStartingThread(int[] cell, long startNanos) {
        increment(cell, FINISHED + slot(startNanos));
    }

    /** The call {@link #start} counted in {@code cell} has reported, on any thread. */
    void finish(int[] cell, long startNanos) {
        COUNT.getAndAdd(cell, FINISHED_ELSEWHERE + slot(startNanos), 1);
    }

    private void increment(int[] cell, int index) {
        if (cell == shared) {
            COUNT.getAndAdd(cell, index, 1);
        } else {
            COUNT.setRelease(cell, index, (int) COUNT.get(cell, index) + 1); // only the owning thread writes here
        }
    }

    /**
     * Brings the record of hung calls up to the generation of {@code nowNanos}; true for exactly one caller per
     * generation, which should then check the running calls against the thresholds. This is what opens a breaker
     * whose calls all hang: no call ends, so only a starting call or a reader can notice. O(1) for every other
     * caller of the generation; the one that advances sums one slot (or a few after an idle spell) over the cells.
     */
    boolean advance(long nowNanos) {
        long generation = nowNanos >> shift;
        long checked = checkedGeneration;
        if (checked == generation || !CHECKED.compareAndSet(this, checked, generation)) {
            return false;
        }
        markHungSlots(generation);
        return true;
    }

    /**
     * Re-sums the slots marked as holding hung calls (their calls may have ended), drops those that left the
     * tracked range, and marks the slots that have grown old enough since the last time.
     */
    private synchronized void markHungSlots(long generation) {
        long newest = generation - hungAfter;
        long oldest = generation - (SLOTS - 1);
        long mask = 0;
        for (long bits = hungSlots; bits != 0; bits &= bits - 1) {
            int slot = Long.numberOfTrailingZeros(bits);
            if (generationOf(slot, markedUpTo) >= oldest && running(slot) > 0) {
                mask |= 1L << slot;
            }
        }
        for (long g = Math.max(markedUpTo + 1, oldest); g <= newest; g++) {
            int slot = (int) (g & (SLOTS - 1));
            if (running(slot) > 0) {
                mask |= 1L << slot;
            }
        }
        markedUpTo = Math.max(markedUpTo, newest);
        hungSlots = mask;
    }

    /**
     * Calls started at or after {@code sinceNanos} (to the generation) and still running past the threshold, as of
     * the last {@link #advance}; one volatile read when none were, the marked slots summed when some were.
     */
    int hung(long nowNanos, long sinceNanos) {
        long bits = hungSlots;
        if (bits == 0) {
            return 0;
        }
        long newest = (nowNanos >> shift) - hungAfter;
        long oldest = Math.max((nowNanos >> shift) - (SLOTS - 1), sinceNanos >> shift);
        long hung = 0;
        for (; bits != 0; bits &= bits - 1) {
            int slot = Long.numberOfTrailingZeros(bits);
            if (generationOf(slot, newest) >= oldest) {
                hung += running(slot);
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, hung);
    }

    /** The newest generation not after {@code newest} that counts in {@code slot}. */
    private static long generationOf(int slot, long newest) {
        return newest - ((newest - slot) & (SLOTS - 1));
    }

    /** Calls counted in {@code slot} that have not finished, over every cell. */
    private int running(int slot) {
        // Finishes first: a call that finishes while we read is then still counted, as it was hung when we began.
        // Counts wrap around; their difference (the calls running) stays right in int arithmetic.
        int finished = sum(FINISHED + slot) + sum(FINISHED_ELSEWHERE + slot);
        int started = sum(STARTED + slot);
        return Math.max(0, started - finished);
    }

    private int sum(int index) {
        int sum = (int) COUNT.getAcquire(shared, index);
        int cellCount = Math.min(ownedCount.get(), MAX_OWNED_CELLS);
        for (int i = 0; i < cellCount; i++) {
            int[] cell = owned.get(i);
            if (cell != null) {
                sum += (int) COUNT.getAcquire(cell, index);
            }
        }
        return sum;
    }

    private int slot(long nanos) {
        return (int) ((nanos >> shift) & (SLOTS - 1));
    }

    private int[] register() {
        int index = ownedCount.getAndIncrement();
        if (index >= MAX_OWNED_CELLS) {
            return shared;
        }
        int[] cell = newCell();
        owned.set(index, cell);
        return cell;
    }

    private static int[] newCell() {
        return new int[PAD + 3 * SLOTS + PAD];
    }

    private static final VarHandle CHECKED;

    static {
        try {
            CHECKED = MethodHandles.lookup().findVarHandle(InFlightCalls.class, "checkedGeneration", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
