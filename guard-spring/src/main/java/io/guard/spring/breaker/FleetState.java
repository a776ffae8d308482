package io.guard.spring.breaker;

import io.guard.breaker.CircuitBreaker;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The states a breaker of every instance is put in at once. FORCED_OPEN and DISABLED are kept: an instance that starts
 * later starts in them. CLOSED and RESET act once on the instances running, and end a kept one. An operator sends
 * those four; OPEN is sent by an instance whose breaker opened, when the breaker shares its openings (share-open).
 */
public enum FleetState {

    FORCED_OPEN(true), DISABLED(true), CLOSED(false), RESET(false), OPEN(false);

    /** The names an operator may send, for error messages. */
    public static final String ACCEPTED = Arrays.stream(values()).filter(FleetState::byOperator).map(Enum::name)
            .collect(Collectors.joining(", "));

    private final boolean kept;

    FleetState(boolean kept) {
        this.kept = kept;
    }

    /** Whether an operator may send it (every state but OPEN, which only share-open sends). */
    public boolean byOperator() {
        return this != OPEN;
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
            case OPEN -> breaker.transitionToOpenState(); // a shared opening is applied by SharedOpenings instead
        }
    }
}
