package io.guard.breaker.window;

/**
 * Sixty-four bytes laid out before a {@link Stripe}'s own fields, so that the lock word of one stripe does not
 * share a cache line with the previous object in memory (possibly another thread's stripe).
 */
@SuppressWarnings("unused")
abstract class StripePadding {
    long p1;
    long p2;
    long p3;
    long p4;
    long p5;
    long p6;
    long p7;
    long p8;
}
