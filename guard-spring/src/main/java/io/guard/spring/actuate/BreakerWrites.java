package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.spring.breaker.FleetBreakers;
import io.guard.spring.breaker.FleetState;
import io.guard.spring.breaker.FleetView;
import org.jspecify.annotations.Nullable;

import java.util.Locale;
import java.util.Optional;

/**
 * The {@code guard} endpoint's breaker state changes: on this instance (the default scope), or with
 * {@code scope=fleet} on every instance at once, through {@link FleetBreakers}, for FORCED_OPEN, DISABLED, CLOSED and
 * RESET. A fleet-wide change is refused (400) on an instance that has not enabled fleet control, so that an operator
 * never believes the fleet changed when only this instance did.
 */
final class BreakerWrites {

    static final String LOCAL = "instance";
    static final String FLEET = "fleet";

    private final GuardRegistries registries;
    private final @Nullable FleetBreakers fleet;

    BreakerWrites(GuardRegistries registries, @Nullable FleetBreakers fleet) {
        this.registries = registries;
        this.fleet = fleet;
    }

    /**
     * Moves the breaker {@code name} to {@code state} in {@code scope}; {@code null} when there is no such breaker.
     *
     * @param by who asked: the request's principal, logged by every instance for a fleet-wide change
     * @throws org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException naming the field and value
     * @throws IllegalStateException when the fleet-wide command could not be sent (nothing changed then)
     */
    @Nullable
    CircuitBreakerDescriptor change(String name, @Nullable String state, @Nullable String scope, String by) {
        if (!fleetScope(scope)) {
            GuardEndpoint.Transition transition = GuardEndpoint.Transition.parse(state);
            Optional<CircuitBreaker> breaker = registries.breaker(name);
            breaker.ifPresent(transition::applyTo);
            return breaker.map(this::describe).orElse(null);
        }
        if (fleet == null) {
            throw GuardEndpoint.invalid("scope 'fleet' needs fleet-wide breaker control on this instance: set "
                    + "guard.circuit-breaker.fleet.enabled=true (with the Redis backend)");
        }
        FleetState fleetState = FleetState.parse(state).filter(FleetState::byOperator).orElseThrow(() -> GuardEndpoint.invalid("state '" + state
                + "' cannot be set on the fleet; expected one of " + FleetState.ACCEPTED));
        Optional<CircuitBreaker> breaker = registries.breaker(name);
        if (breaker.isEmpty()) {
            return null;
        }
        fleet.command(name, fleetState, by);
        return describe(breaker.get());
    }

    /** The breaker as the endpoint shows it, with this instance's name and fleet-wide command when fleet control is on. */
    CircuitBreakerDescriptor describe(CircuitBreaker breaker) {
        CircuitBreakerDescriptor plain = CircuitBreakerDescriptor.of(breaker);
        if (fleet == null) {
            return plain;
        }
        return plain.withFleet(new CircuitBreakerDescriptor.Fleet(fleet.instanceId(),
                fleet.commandOf(breaker.name()).map(CircuitBreakerDescriptor.FleetCommand::of).orElse(null)));
    }

    /** Which instance is in which state, as last read; null unless fleet-wide control is enabled. */
    GuardEndpoint.@Nullable FleetReport fleet() {
        if (fleet == null) {
            return null;
        }
        FleetView.Snapshot last = fleet.view().last();
        return new GuardEndpoint.FleetReport(fleet.instanceId(), last.instances(),
                last.readAt() == null ? null : last.readAt().toString());
    }

    private static boolean fleetScope(@Nullable String scope) {
        if (scope == null || scope.isBlank()) {
            return false;
        }
        String normalized = scope.trim().toLowerCase(Locale.ROOT);
        if (normalized.equals(FLEET)) {
            return true;
        }
        if (normalized.equals(LOCAL)) {
            return false;
        }
        throw GuardEndpoint.invalid("Unknown scope '" + scope + "'; expected " + LOCAL + " (the default) or " + FLEET);
    }
}
