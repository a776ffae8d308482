package io.guard.spring.aop;

/** Runs the rest of the interceptor chain and the method; may run later, or once per subscription. */
@FunctionalInterface
interface Proceed {

    Object proceed() throws Throwable;
}
