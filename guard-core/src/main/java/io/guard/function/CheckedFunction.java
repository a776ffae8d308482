package io.guard.function;

/** A function that may throw anything, checked exceptions included. */
@FunctionalInterface
public interface CheckedFunction<T, R> {

    R apply(T input) throws Throwable;
}
