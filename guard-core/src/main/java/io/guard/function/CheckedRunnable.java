package io.guard.function;

/** A runnable that may throw anything, checked exceptions included. */
@FunctionalInterface
public interface CheckedRunnable {

    void run() throws Throwable;
}
