/**
 * Adaptive concurrency limits: the settings of {@code max-concurrent-calls: adaptive} and of
 * {@code guard.server-limit}, checked at start-up, and the bridge from guard-core's {@code ConcurrencyLimit} to
 * Netflix's concurrency-limits algorithms (an optional dependency, loaded only when a limit is adaptive).
 */
package io.guard.spring.bulkhead;
