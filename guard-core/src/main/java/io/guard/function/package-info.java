/**
 * Functional interfaces whose methods may throw checked exceptions, for decorating calls that declare them
 * (the JDK's {@code Supplier} and {@code Function} cannot).
 */
package io.guard.function;
