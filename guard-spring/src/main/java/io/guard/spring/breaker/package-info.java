/**
 * Circuit breakers as a Spring application meets them: what users catch besides the core's
 * {@code CallNotPermittedException}, such as {@link io.guard.spring.breaker.ResultRecordedAsFailureException}.
 *
 * <p>Public API.
 */
package io.guard.spring.breaker;
