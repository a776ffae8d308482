package io.guard.spring.breaker;

import io.guard.breaker.CircuitBreaker;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The states an operator may set on a breaker of every instance at once. FORCED_OPEN and DISABLED are kept: an
 * instance that starts later starts in them. CLOSED and RESET act once on the instances running, and end a kept one.
 */
public enum FleetState {

    FORCED_OPEN(true), DISABLED(true), CLOSED(false), RESET(false);

    /** The accepted names, for error messages. */
    public static final String ACCEPTED = Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));

    private final boolean kept;

    FleetState(boolean kept) {
        this.kept = kept;
    }

    /** Whether an instance that starts later starts in this state. */
    public boolean kept() {
        return kept;
    }

    /** The state of this name ({@code forced_open}, {@code reset}...), if it is one. */
    public static Optional<FleetState> parse(String name) {
        String normalized = name == null ? "" : name.trim().replace('-', '_').toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(s -> s.name().equals(normalized)).findFirst();
    }

    void applyTo(CircuitBreaker breaker) {
        switch (this) {
            case FORCED_OPEN -> breaker.transitionToForcedOpenState();
            case DISABLED -> breaker.transitionToDisabledState();
            case CLOSED -> breaker.transitionToClosedState();
            case RESET -> breaker.reset();
        }
    }
}
