package io.guard.function;

/** A supplier that may throw anything, checked exceptions included: what most remote calls look like. */
@FunctionalInterface
public interface CheckedSupplier<T> {

    T get() throws Throwable;
}
