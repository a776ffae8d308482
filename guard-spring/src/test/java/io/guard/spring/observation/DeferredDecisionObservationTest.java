package io.guard.spring.observation;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.BackendFailureReason;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static io.guard.spring.observation.RecordingHandler.high;
import static io.guard.spring.observation.RecordingHandler.low;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decisions of limits that all lease (guard.observations.allowed-leased-decisions=false): an allowed one is not
 * observed, anything else is, with what it would have been tagged with from its start, under the observation current
 * where it was asked.
 */
class DeferredDecisionObservationTest {

    private static final RateLimitPolicy HOT = new RateLimitPolicy("hot", Algorithm.TOKEN_BUCKET, 10,
            Duration.ofSeconds(1), 0, Scope.GLOBAL, TimeSource.SERVER, BackendFailurePolicy.LOCAL);
    private static final Decision ALLOWED = new Decision(true, 9, Duration.ZERO, Duration.ofMillis(100), 10);
    private static final Decision REFUSED = new Decision(false, 0, Duration.ofMillis(1500), Duration.ofSeconds(1), 10);
    private static final RateLimitDecisionSink NOTHING = new RateLimitDecisionSink() {
        @Override
        public void record(RateLimitPolicy policy, Decision decision) {
        }
    };

    private final RecordingHandler handler = new RecordingHandler();
    private final ObservationRegistry registry = RecordingHandler.registryReportingTo(handler);
    private final Set<String> leased = Set.of("hot", "hot-tier");
    private final GuardObservations observations = new GuardObservations(registry, null, null, leased::contains);

    @Test
    void anAllowedDecisionOfLeasedLimitsIsNotObserved() {
        DecisionObservation observed = observations.configuredDecision("Api.hot", List.of("hot", "hot-tier"), null);
        assertThat(observed.openScope()).as("no observation to make current").isNull();
        observed.sink(NOTHING).record(HOT, ALLOWED);
        observed.end(null);
        observed.cancelled();
        assertThat(handler.started()).isEmpty();
        assertThat(handler.stopped()).isEmpty();
    }

    @Test
    void aRefusalIsObservedWithItsFallbackUnderTheObservationCurrentWhereItWasAsked() {
        Observation request = Observation.start("http.server.requests", registry);
        DecisionObservation observed;
        try (Observation.Scope scope = request.openScope()) {
            observed = observations.configuredDecision("Api.hot", List.of("hot"), null);
        }
        observed.fallback();
        observed.end(new RateLimitExceededException(HOT, REFUSED, "refused"));
        request.stop();

        Observation.Context decision = handler.named(DefaultRateLimitObservationConvention.NAME).get(0);
        assertThat(low(decision, "guard.outcome")).isEqualTo("refused");
        assertThat(low(decision, "guard.limit")).isEqualTo("hot");
        assertThat(low(decision, "guard.fallback")).isEqualTo("true");
        assertThat(low(decision, "guard.failure-policy")).isEqualTo("none");
        assertThat(high(decision, "guard.retry-after")).isEqualTo("1500ms");
        assertThat(decision.getParentObservation()).isSameAs(request);
    }

    @Test
    void shadowRefusalsFailoversAndErrorsAreObserved() {
        DecisionObservation shadow = observations.configuredDecision("Api.hot", List.of("hot"), null);
        shadow.sink(NOTHING).shadowRefusal(HOT, REFUSED);
        shadow.end(null);

        DecisionObservation failedOver = observations.configuredDecision("Api.hot", List.of("hot"), null);
        failedOver.sink(NOTHING).failedOver(HOT, ALLOWED.failedOver(BackendFailureReason.TIMEOUT));
        failedOver.end(null);

        DecisionObservation error = observations.configuredDecision("Api.hot", List.of("hot"), null);
        error.end(new IllegalStateException("no key"));

        List<Observation.Context> decisions = handler.named(DefaultRateLimitObservationConvention.NAME);
        assertThat(decisions).hasSize(3);
        assertThat(low(decisions.get(0), "guard.outcome")).isEqualTo("shadow-refused");
        assertThat(low(decisions.get(1), "guard.outcome")).isEqualTo("allowed");
        assertThat(low(decisions.get(1), "guard.failure-policy")).isEqualTo("local");
        assertThat(low(decisions.get(1), "guard.backend.failure")).isEqualTo("timeout");
        assertThat(low(decisions.get(2), "guard.outcome")).isEqualTo("error");
        assertThat(decisions.get(2).getError()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDecisionWithOneExactLimitIsObservedFromItsStart() {
        DecisionObservation observed = observations.configuredDecision("Api.mixed", List.of("hot", "exact"), null);
        assertThat(handler.started()).hasSize(1);
        try (Observation.Scope scope = observed.openScope()) {
            assertThat(registry.getCurrentObservation()).isNotNull();
        }
        observed.end(null);
        assertThat(low(handler.named(DefaultRateLimitObservationConvention.NAME).get(0), "guard.outcome"))
                .isEqualTo("allowed");
    }

    @Test
    void withoutThePredicateEveryDecisionIsObserved() {
        GuardObservations everything = new GuardObservations(registry, null, null);
        DecisionObservation observed = everything.configuredDecision("Api.hot", List.of("hot"), null);
        observed.end(null);
        assertThat(handler.named(DefaultRateLimitObservationConvention.NAME)).hasSize(1);
    }
}
