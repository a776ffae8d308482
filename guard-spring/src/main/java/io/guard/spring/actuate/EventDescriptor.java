package io.guard.spring.actuate;

import io.guard.event.GuardEvent;

import java.util.Map;
import java.util.TreeMap;

/**
 * One event as {@code guardevents} and its live stream show it: times as ISO-8601 text and durations in
 * milliseconds, independent of how the application configures Jackson.
 *
 * @param source     {@code CIRCUIT_BREAKER} or {@code RATE_LIMITER}
 * @param name       the breaker's or limiter's name
 * @param type       what happened, e.g. {@code STATE_TRANSITION}, {@code RATE_LIMITED}
 * @param time       when, e.g. {@code 2026-11-29T17:02:03.123Z}
 * @param durationMs the call's duration where there was a call, else 0
 * @param details    small facts: {@code from}/{@code to} states, the error class, retry-after
 */
public record EventDescriptor(String source, String name, String type, String time, double durationMs,
                              Map<String, String> details) {

    static EventDescriptor of(GuardEvent event) {
        return new EventDescriptor(event.source().name(), event.name(), event.type().name(), event.time().toString(),
                event.duration().toNanos() / 1e6, new TreeMap<>(event.details()));
    }
}
