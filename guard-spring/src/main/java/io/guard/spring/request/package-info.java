/**
 * The current web request of a guarded call, for servlet and WebFlux alike: what {@code #clientIp},
 * {@code #principal} and {@code #headers} read in key expressions. A servlet request is bound to the calling
 * thread; a WebFlux exchange travels in the Reactor context.
 *
 * <p>Internal: not an API. Public types here are public only for Guard's other packages.
 */
package io.guard.spring.request;
