package io.guard.spring.breaker;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One operator's command to every instance: put the breaker {@code breaker} in {@code state}. What the store keeps
 * as the breaker's last command and what its message carries, as a form-encoded line
 * ({@code breaker=payments&state=FORCED_OPEN&by=alice&from=orders%40host-1%3A4242&at=2026-01-01T00:00:00Z}), so that
 * every value (a breaker name, a principal) may hold any character.
 *
 * @param breaker the breaker's name
 * @param state   what every instance puts it in
 * @param by      who asked (the principal of the actuator request, or how it came when there was none)
 * @param from    the instance that sent it
 * @param at      when it was sent, on that instance's clock
 * @param openFor how long an OPEN shared by share-open lasts from {@code at}; null for every other state
 */
public record FleetCommand(String breaker, FleetState state, String by, String from, Instant at, Duration openFor) {

    private static final List<String> FIELDS = List.of("breaker", "state", "by", "from", "at");

    public FleetCommand {
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(by, "by");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(at, "at");
        if ((state == FleetState.OPEN) != (openFor != null)) {
            throw new IllegalArgumentException("openFor goes with OPEN and only with OPEN, but state was " + state
                    + " and openFor " + openFor);
        }
        if (openFor != null && (openFor.isNegative() || openFor.isZero())) {
            throw new IllegalArgumentException("openFor must be positive but was " + openFor);
        }
    }

    /** An operator's command (every state but OPEN). */
    public FleetCommand(String breaker, FleetState state, String by, String from, Instant at) {
        this(breaker, state, by, from, at, null);
    }

    /** The form-encoded line. */
    public String encode() {
        return "breaker=" + encode(breaker) + "&state=" + state.name() + "&by=" + encode(by) + "&from=" + encode(from)
                + "&at=" + at + (openFor == null ? "" : "&openFor=" + openFor);
    }

    /**
     * The command {@code text} encodes.
     *
     * @throws IllegalArgumentException naming what is wrong, when a field is missing, repeated or invalid; fields
     *                                  this version does not know are ignored, so that a newer instance may add some
     */
    public static FleetCommand decode(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty command");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : text.split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + pair + "' is no field=value pair in '" + text + "'");
            }
            String name = pair.substring(0, eq);
            if (fields.put(name, decode(pair.substring(eq + 1), text)) != null) {
                throw new IllegalArgumentException("field '" + name + "' is repeated in '" + text + "'");
            }
        }
        for (String required : FIELDS) {
            String value = fields.get(required);
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("field '" + required + "' is missing in '" + text + "'");
            }
        }
        FleetState state = FleetState.parse(fields.get("state")).orElseThrow(() -> new IllegalArgumentException(
                "state '" + fields.get("state") + "' is not one of " + FleetState.ACCEPTED + ", OPEN"));
        Instant at;
        try {
            at = Instant.parse(fields.get("at"));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("at '" + fields.get("at") + "' is not an instant", e);
        }
        Duration openFor = null;
        if (state == FleetState.OPEN) {
            try {
                openFor = Duration.parse(fields.getOrDefault("openFor", ""));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("field 'openFor' of an OPEN is missing or not a duration in '"
                        + text + "'", e);
            }
        }
        return new FleetCommand(fields.get("breaker"), state, fields.get("by"), fields.get("from"), at, openFor);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String decode(String value, String text) {
        try {
            return URLDecoder.decode(value, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + value + "' is not form-encoded in '" + text + "'", e);
        }
    }
}
