package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.State;
import io.guard.event.GuardEvent;
import io.guard.event.GuardEventListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Locale;

/**
 * The meters of one circuit breaker, created once when the breaker is bound, so that recording a call is a switch
 * on the event type and one timer update: no tag building and no registry lookup per call. Gauges read the
 * breaker when scraped.
 */
final class CircuitBreakerMeters implements GuardEventListener {

    static final String CALLS = "guard.circuitbreaker.calls";
    static final String NOT_PERMITTED = "guard.circuitbreaker.not.permitted.calls";
    static final String STATE = "guard.circuitbreaker.state";
    static final String FAILURE_RATE = "guard.circuitbreaker.failure.rate";
    static final String SLOW_CALL_RATE = "guard.circuitbreaker.slow.call.rate";

    private final Timer successful;
    private final Timer failed;
    private final Timer ignored;
    private final Counter notPermitted;

    private CircuitBreakerMeters(CircuitBreaker breaker, MeterRegistry registry) {
        String name = breaker.name();
        successful = callTimer(registry, name, "successful");
        failed = callTimer(registry, name, "failed");
        ignored = callTimer(registry, name, "ignored");
        // A counter of events rather than a function of notPermittedCalls(), which reset() sets back to zero and
        // a counter must never go down.
        notPermitted = Counter.builder(NOT_PERMITTED).tag("name", name)
                .description("Calls the circuit breaker refused").register(registry);
        for (State state : State.values()) {
            Gauge.builder(STATE, breaker, b -> b.state() == state ? 1 : 0)
                    .tags("name", name, "state", state.name().toLowerCase(Locale.ROOT))
                    .description("1 for the circuit breaker's current state, 0 for the others")
                    .register(registry);
        }
        Gauge.builder(FAILURE_RATE, breaker, b -> b.snapshot().failureRate()).tag("name", name).baseUnit("percent")
                .description("Failure rate in the sliding window; -1 until minimum-number-of-calls were made")
                .register(registry);
        Gauge.builder(SLOW_CALL_RATE, breaker, b -> b.snapshot().slowCallRate()).tag("name", name)
                .baseUnit("percent")
                .description("Slow-call rate in the sliding window; -1 until minimum-number-of-calls were made")
                .register(registry);
    }

    /** Registers the meters of {@code breaker} in {@code registry} and starts recording its calls. */
    static void bind(CircuitBreaker breaker, MeterRegistry registry) {
        breaker.addListener(new CircuitBreakerMeters(breaker, registry));
    }

    private static Timer callTimer(MeterRegistry registry, String name, String kind) {
        return Timer.builder(CALLS).tags("name", name, "kind", kind)
                .description("Calls through the circuit breaker, by outcome").register(registry);
    }

    @Override
    public void onEvent(GuardEvent event) {
        switch (event.type()) {
            case SUCCESS -> successful.record(event.duration());
            case ERROR -> failed.record(event.duration());
            case IGNORED_ERROR -> ignored.record(event.duration());
            case NOT_PERMITTED -> notPermitted.increment();
            default -> {
                // State transitions, resets and rate alerts are read by the gauges.
            }
        }
    }
}
