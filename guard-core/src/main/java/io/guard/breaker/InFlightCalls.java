package io.guard.breaker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * <p>Cost on the hot path: one thread-local lookup and two uncontended atomic adds per call. Counters live in
 * cells, one per group of threads, chosen like {@code LongAdder}'s: a thread that meets contention on its cell
 * moves to another one, so threads on different cores write different cache lines. Readers sum every cell.
 */
final class InFlightCalls {

    static final int SLOTS = 64;
    private static final int MAX_CELLS = 64;
    private static final int PAD = 16; // ints before and after the counters: two cells' counters never share a line
    private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(int[].class);

    private final int shift;
    private final int hungAfter;
    private final AtomicReferenceArray<int[]> cells;
    private final int mask;
    private final ThreadLocal<int[]> probes = ThreadLocal.withInitial(() -> new int[] {seed()});
    private volatile long checkedGeneration = Long.MIN_VALUE;

    /** @param slowNanos slow-call-duration-threshold: a call running longer is hung */
    InFlightCalls(long slowNanos) {
        long width = Math.max(1, slowNanos / 8);
        this.shift = 63 - Long.numberOfLeadingZeros(width);
        long generation = 1L << shift;
        this.hungAfter = (int) Math.min(SLOTS, (slowNanos + generation - 1) / generation + 1);
        int size = Integer.highestOneBit(Math.max(2, Math.min(MAX_CELLS, 2 * Runtime.getRuntime().availableProcessors()) - 1)) << 1;
        this.cells = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
    }

    /** Counts a call started at {@code startNanos} as running; returns the cell to finish it with. */
    int[] start(long startNanos) {
        int[] probe = probes.get();
        int[] cell = cell(probe[0]);
        add(cell, probe, PAD + slot(startNanos));
        return cell;
    }

    /** The call started at {@code startNanos}, counted in {@code cell}, has reported. Any thread may call this. */
    void finish(int[] cell, long startNanos) {
        add(cell, probes.get(), PAD + SLOTS + slot(startNanos));
    }

    /**
     * Whether nobody has looked for hung calls in the generation of {@code nowNanos} yet; true for exactly one
     * caller per generation, which should then check the running calls against the thresholds. This is what opens
     * a breaker whose calls all hang: no call ends, so only a starting or refused call can notice.
     */
    boolean checkDue(long nowNanos) {
        long generation = nowNanos >> shift;
        long checked = checkedGeneration;
        return checked != generation && CHECKED.compareAndSet(this, checked, generation);
    }

    /** Calls started at or after {@code sinceNanos} (to the generation) and still running past the threshold. */
    int hung(long nowNanos, long sinceNanos) {
        long newest = (nowNanos >> shift) - hungAfter;
        long oldest = Math.max((nowNanos >> shift) - (SLOTS - 1), sinceNanos >> shift);
        if (newest < oldest) {
            return 0;
        }
        long hung = 0;
        for (long g = oldest; g <= newest; g++) {
            int slot = (int) (g & (SLOTS - 1));
            // Finishes first: a call that finishes while we read is then still counted, as it was hung when we
            // began. Counts wrap around; their difference (the calls running) stays right in int arithmetic.
            int finished = sum(PAD + SLOTS + slot);
            int started = sum(PAD + slot);
            hung += Math.max(0, started - finished);
        }
        return (int) Math.min(Integer.MAX_VALUE, hung);
    }

    private int sum(int index) {
        int sum = 0;
        for (int i = 0; i < cells.length(); i++) {
            int[] cell = cells.get(i);
            if (cell != null) {
                sum += (int) COUNT.getAcquire(cell, index);
            }
        }
        return sum;
    }

    private int slot(long nanos) {
        return (int) ((nanos >> shift) & (SLOTS - 1));
    }

    private int[] cell(int probe) {
        int index = probe & mask;
        int[] cell = cells.get(index);
        if (cell == null) {
            int[] created = new int[PAD + 2 * SLOTS + PAD];
            cell = cells.compareAndSet(index, null, created) ? created : cells.get(index);
        }
        return cell;
    }

    /** Adds one; a thread that loses a race here moves to another cell for its next call. */
    private static void add(int[] cell, int[] probe, int index) {
        int value = (int) COUNT.getVolatile(cell, index);
        if (!COUNT.compareAndSet(cell, index, value, value + 1)) {
            probe[0] = next(probe[0]);
            COUNT.getAndAdd(cell, index, 1);
        }
    }

    /** Marsaglia xorshift, as for the window's stripes. */
    private static int next(int value) {
        int x = value == 0 ? 0x9E3779B9 : value;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return x;
    }

    @SuppressWarnings("deprecation") // Thread.threadId() arrives in Java 19; getId() is the same number
    private static int seed() {
        return (int) (Thread.currentThread().getId() * 0x9E3779B97F4A7C15L >>> 32);
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
