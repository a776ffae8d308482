package io.guard.spring.breaker;

import io.guard.breaker.BreakerStateStore;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** What an instance applies of the fleet's commands, on a store in memory and a timer moved by hand. */
class FleetBreakersTest {

    private static final Duration POLL = Duration.ofSeconds(5);
    private static final Instant AT = Instant.parse("2026-12-05T03:00:00Z");

    private final ManualClock timer = new ManualClock();
    private final MemoryStore store = new MemoryStore();

    @Test
    void aKeptStateFoundAtTheFirstReadIsAppliedButAPastCloseOrResetIsNot() {
        CircuitBreakerRegistry registry = registry();
        registry.circuitBreaker("payments");
        registry.circuitBreaker("search").transitionToOpenState();
        store.put("payments", command("payments", FleetState.FORCED_OPEN).encode());
        store.put("search", command("search", FleetState.RESET).encode());

        start(registry, "late");

        assertThat(registry.circuitBreaker("payments").state()).isEqualTo(State.FORCED_OPEN);
        assertThat(registry.circuitBreaker("search").state()).as("a reset sent before it started is history")
                .isEqualTo(State.OPEN);
    }

    @Test
    void aBreakerCreatedAfterTheCommandStartsInTheKeptState() {
        CircuitBreakerRegistry registry = registry();
        store.put("payments", command("payments", FleetState.DISABLED).encode());
        start(registry, "late");

        assertThat(registry.circuitBreaker("payments").state()).isEqualTo(State.DISABLED);
    }

    @Test
    void aChangeOnOneInstanceAfterAFleetCommandStaysUntilTheNextCommand() {
        CircuitBreakerRegistry registry = registry();
        registry.circuitBreaker("payments");
        FleetBreakers fleet = start(registry, "here");
        FleetBreakers elsewhere = start(registry(), "elsewhere");

        elsewhere.command("payments", FleetState.FORCED_OPEN, "ann");
        timer.advance(Duration.ZERO);
        assertThat(registry.circuitBreaker("payments").state()).isEqualTo(State.FORCED_OPEN);

        registry.circuitBreaker("payments").transitionToClosedState();
        timer.advance(POLL.multipliedBy(3));
        assertThat(registry.circuitBreaker("payments").state()).as("the re-reads do not enforce it")
                .isEqualTo(State.CLOSED);

        elsewhere.command("payments", FleetState.DISABLED, "bob");
        timer.advance(Duration.ZERO);
        assertThat(registry.circuitBreaker("payments").state()).isEqualTo(State.DISABLED);
        assertThat(fleet.commandOf("payments").orElseThrow().by()).isEqualTo("bob");
    }

    @Test
    void aMalformedMessageIsDroppedWithoutAReReadAndAWellFormedOneOnlyCausesOne() {
        start(registry(), "here");
        int pending = timer.pendingTasks();

        store.publish("FORCED_OPEN payments");
        assertThat(timer.pendingTasks()).isEqualTo(pending);

        store.publish(command("payments", FleetState.FORCED_OPEN).encode());
        assertThat(timer.pendingTasks()).isEqualTo(pending + 1);
    }

    @Test
    void aMissedMessageIsPickedUpByTheNextReRead() {
        CircuitBreakerRegistry registry = registry();
        registry.circuitBreaker("payments");
        start(registry, "here");

        store.putSilently("payments", command("payments", FleetState.FORCED_OPEN).encode());
        timer.advance(POLL.minusMillis(1));
        assertThat(registry.circuitBreaker("payments").state()).isEqualTo(State.CLOSED);
        timer.advance(Duration.ofMillis(1));
        assertThat(registry.circuitBreaker("payments").state()).isEqualTo(State.FORCED_OPEN);
    }

    @Test
    void aBreakerThatSharesItsOpeningsOpensOnTheOtherInstanceForTheSameWaitAndTheOpeningTravelsOnce() {
        CircuitBreakerRegistry here = registry();
        CircuitBreakerRegistry there = registry();
        for (CircuitBreakerRegistry registry : List.of(here, there)) {
            registry.circuitBreaker("flaky", TRIPS_AT_TWO);
            registry.circuitBreaker("steady", TRIPS_AT_TWO);
            registry.circuitBreaker("held", TRIPS_AT_TWO);
        }
        there.circuitBreaker("held").transitionToForcedOpenState();
        start(here, "here", name -> !name.equals("steady"));
        FleetBreakers onThere = start(there, "there", name -> !name.equals("steady"));

        fail(here, "steady");
        fail(here, "flaky");
        fail(here, "held");
        timer.advance(Duration.ZERO);

        assertThat(there.circuitBreaker("steady").state()).as("share-open off").isEqualTo(State.CLOSED);
        assertThat(there.circuitBreaker("flaky").state()).isEqualTo(State.OPEN);
        assertThat(there.circuitBreaker("flaky").remainingOpenTime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(there.circuitBreaker("held").state()).as("an operator's state stands").isEqualTo(State.FORCED_OPEN);
        assertThat(onThere.commandOf("flaky").orElseThrow().from()).as("not sent back").isEqualTo("here");
        assertThat(store.readAll().toCompletableFuture().join().keySet()).containsOnly("flaky", "held");
    }

    private static final io.guard.breaker.CircuitBreakerConfig TRIPS_AT_TWO = io.guard.breaker.CircuitBreakerConfig
            .builder().slidingWindowSize(2).minimumNumberOfCalls(2).waitDurationInOpenState(Duration.ofSeconds(30))
            .build();

    private static void fail(CircuitBreakerRegistry registry, String breaker) {
        for (int i = 0; i < 2; i++) {
            registry.circuitBreaker(breaker).acquire().onError(new IllegalStateException("down"));
        }
        assertThat(registry.circuitBreaker(breaker).state()).isEqualTo(State.OPEN);
    }

    private CircuitBreakerRegistry registry() {
        return CircuitBreakerRegistry.builder().clock(timer).scheduler(timer).build();
    }

    private FleetBreakers start(CircuitBreakerRegistry registry, String id) {
        return start(registry, id, name -> false);
    }

    private FleetBreakers start(CircuitBreakerRegistry registry, String id,
                                java.util.function.Predicate<String> sharesOpen) {
        FleetBreakers fleet = new FleetBreakers(registry, store, id, Clock.fixed(AT, ZoneOffset.UTC), POLL,
                Duration.ofSeconds(1), timer, sharesOpen);
        fleet.start();
        timer.advance(Duration.ZERO);
        return fleet;
    }

    private static FleetCommand command(String breaker, FleetState state) {
        return new FleetCommand(breaker, state, "ops", "elsewhere", AT);
    }

    /** The store's contract in memory: a map, every message to every listener at once, reports that never expire. */
    static final class MemoryStore implements BreakerStateStore {

        private final Map<String, String> commands = new ConcurrentHashMap<>();
        private final Map<String, Map<String, String>> reports = new ConcurrentHashMap<>();
        private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

        @Override
        public CompletionStage<Void> put(String breaker, String command) {
            putSilently(breaker, command);
            publish(command);
            return CompletableFuture.completedFuture(null);
        }

        void putSilently(String breaker, String command) {
            commands.put(breaker, command);
        }

        void publish(String message) {
            listeners.forEach(listener -> listener.accept(message));
        }

        @Override
        public CompletionStage<Map<String, String>> readAll() {
            return CompletableFuture.completedFuture(Map.copyOf(commands));
        }

        @Override
        public CompletionStage<Void> report(String instance, Map<String, String> states, Duration ttl) {
            reports.put(instance, Map.copyOf(states));
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Map<String, Map<String, String>>> reports() {
            return CompletableFuture.completedFuture(Map.copyOf(reports));
        }

        @Override
        public void listen(Consumer<String> onMessage, Runnable onResubscribed) {
            listeners.add(onMessage);
        }

        @Override
        public void close() {
        }
    }
}
