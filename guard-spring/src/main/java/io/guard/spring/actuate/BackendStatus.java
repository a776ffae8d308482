package io.guard.spring.actuate;

import org.jspecify.annotations.Nullable;

/**
 * Whether the rate-limit backend answers, as the endpoint and the health indicator report it.
 *
 * @param name          the backend's short name, {@code redis} or {@code local}
 * @param up            whether the backend answers and the breaker guarding it admits calls
 * @param breakerState  the state of the breaker guarding the backend, or {@code null} without one
 * @param lastError     the class of the last backend failure, or {@code null}
 * @param lastErrorTime when it happened (ISO-8601), or {@code null}
 * @param since         while not up: since when decisions follow the failure policies (ISO-8601), else {@code null}
 * @param reason        why, in a word ({@code timeout}, {@code connection}, {@code breaker-open}, {@code error}), or
 *                      {@code null}
 */
record BackendStatus(String name, boolean up, @Nullable String breakerState, @Nullable String lastError,
                     @Nullable String lastErrorTime, @Nullable String since, @Nullable String reason) {
}
