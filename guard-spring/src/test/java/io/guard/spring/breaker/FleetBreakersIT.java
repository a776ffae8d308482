package io.guard.spring.breaker;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.spring.actuate.CircuitBreakerDescriptor;
import io.guard.spring.actuate.GuardEndpoint;
import io.guard.spring.actuate.GuardEndpointAutoConfiguration;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of one application (two contexts) on one real Redis with fleet-wide breaker control: a command sent
 * through one instance's {@code guard} endpoint reaches the other within the stated bound, an instance started later
 * comes up in the kept state, an instance without fleet control ignores it, and a malformed message or stored
 * command changes nothing.
 */
@RedisTest
class FleetBreakersIT {

    /** The bound the documentation states: the poll interval (1 s here), pub/sub usually much sooner. */
    private static final Duration BOUND = Duration.ofSeconds(1);
    /** Reported every poll interval and read every poll interval, with room for a loaded machine. */
    private static final Duration VIEW_BOUND = BOUND.multipliedBy(2).multipliedBy(3);

    private static final List<AnnotationConfigApplicationContext> started = new ArrayList<>();
    private static AnnotationConfigApplicationContext a;
    private static AnnotationConfigApplicationContext b;
    private static RedisEndpoint redis;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class, EndpointAutoConfiguration.class,
                    GuardEndpointAutoConfiguration.class})
    static class App {
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        a = instance("a", true);
        b = instance("b", true);
    }

    @AfterAll
    static void stop() {
        started.forEach(AnnotationConfigApplicationContext::close);
    }

    private static AnnotationConfigApplicationContext instance(String id, boolean fleet) {
        AnnotationConfigApplicationContext context = RedisBacked.start(new AnnotationConfigApplicationContext(),
                redis, c -> c.register(App.class), "guard.circuit-breaker.fleet.enabled=" + fleet,
                "guard.circuit-breaker.fleet.instance-id=" + id, "guard.circuit-breaker.fleet.poll-interval=1s",
                "guard.circuit-breaker.instances.flaky.share-open=" + fleet, // needs fleet control
                "guard.circuit-breaker.instances.flaky.sliding-window-size=2",
                "guard.circuit-breaker.instances.flaky.minimum-number-of-calls=2",
                "guard.circuit-breaker.instances.flaky.wait-duration-in-open-state=30s",
                "guard.circuit-breaker.instances.steady.sliding-window-size=2",
                "guard.circuit-breaker.instances.steady.minimum-number-of-calls=2",
                "guard.circuit-breaker.instances.steady.wait-duration-in-open-state=30s",
                "management.endpoints.jmx.exposure.include=guard", "management.endpoints.web.exposure.include=guard");
        started.add(context);
        return context;
    }

    @Test
    void aForceOpenReachesBothInstancesAndOneStartedLaterAndACloseEndsItEverywhere() {
        breaker(a, "payments");
        breaker(b, "payments");

        Object answer = a.getBean(GuardEndpoint.class).changeState("payments", "FORCED_OPEN", null, null, null, null,
                "fleet");

        assertThat(answer).isInstanceOfSatisfying(CircuitBreakerDescriptor.class, breaker -> {
            assertThat(breaker.state()).isEqualTo("FORCED_OPEN");
            assertThat(breaker.fleet().instance()).isEqualTo("a");
            assertThat(breaker.fleet().command().state()).isEqualTo("FORCED_OPEN");
            assertThat(breaker.fleet().command().by()).isEqualTo("jmx");
            assertThat(breaker.fleet().command().from()).isEqualTo("a");
        });
        awaitWithinBound(() -> state(b, "payments") == State.FORCED_OPEN);
        CircuitBreakerDescriptor onB = b.getBean(GuardEndpoint.class).guardEntry("payments").circuitBreaker();
        assertThat(onB.fleet().instance()).isEqualTo("b");
        assertThat(onB.fleet().command().from()).isEqualTo("a");

        AnnotationConfigApplicationContext later = instance("later", true);
        breaker(later, "payments");
        awaitWithinBound(() -> state(later, "payments") == State.FORCED_OPEN);
        assertThat(later.getBean(CircuitBreakerRegistry.class).circuitBreaker("payments").tryAcquire())
                .as("a forced-open breaker refuses").isNull();

        b.getBean(GuardEndpoint.class).changeState("payments", "CLOSED", null, null, null, null, "fleet");

        for (AnnotationConfigApplicationContext instance : List.of(a, b, later)) {
            awaitWithinBound(() -> state(instance, "payments") == State.CLOSED);
        }
        AnnotationConfigApplicationContext afterTheClose = instance("after-the-close", true);
        breaker(afterTheClose, "payments");
        awaitWithinBound(() -> afterTheClose.getBean(FleetBreakers.class).commandOf("payments").isPresent());
        assertThat(state(afterTheClose, "payments")).isEqualTo(State.CLOSED);
    }

    @Test
    void aDisableAndAResetReachTheOtherInstanceAndABreakerCreatedAfterwardsStartsDisabled() {
        breaker(a, "search");

        a.getBean(GuardEndpoint.class).changeState("search", "disabled", null, null, null, null, "fleet");

        awaitWithinBound(() -> b.getBean(FleetBreakers.class).commandOf("search").isPresent());
        assertThat(state(b, "search")).as("created after the command reached b").isEqualTo(State.DISABLED);

        a.getBean(GuardEndpoint.class).changeState("search", "reset", null, null, null, null, "fleet");

        awaitWithinBound(() -> state(b, "search") == State.CLOSED);
        assertThat(state(a, "search")).isEqualTo(State.CLOSED);
    }

    @Test
    void anInstanceWithoutFleetControlIgnoresTheCommands() {
        AnnotationConfigApplicationContext alone = instance("alone", false);
        breaker(alone, "reports");
        breaker(a, "reports");
        breaker(b, "reports");

        a.getBean(GuardEndpoint.class).changeState("reports", "FORCED_OPEN", null, null, null, null, "fleet");

        awaitWithinBound(() -> state(b, "reports") == State.FORCED_OPEN);
        assertThat(alone.getBeansOfType(FleetBreakers.class)).isEmpty();
        assertThat(state(alone, "reports")).isEqualTo(State.CLOSED);
        a.getBean(GuardEndpoint.class).changeState("reports", "CLOSED", null, null, null, null, "fleet");
    }

    @Test
    void aMalformedMessageOrStoredCommandIsDroppedAndChangesNothing() {
        breaker(a, "ledger");
        breaker(b, "ledger");
        String channel = redis.keyPrefix() + "breakers";
        String hash = redis.keyPrefix() + "{guard-breakers}";

        breaker(a, "probe");
        breaker(b, "probe");

        redis.call("PUBLISH", channel, "FORCED_OPEN ledger");
        redis.call("PUBLISH", channel, "breaker=ledger&state=EXPLODED&by=eve&from=x&at=2026-01-01T00:00:00Z");
        // well formed, but no instance sent it: the store holds no such command, so it is not applied either
        redis.call("PUBLISH", channel, "breaker=ledger&state=FORCED_OPEN&by=eve&from=x&at=2026-01-01T00:00:00Z");
        redis.call("HSET", hash, "ledger", "breaker=ledger&state=FORCED_OPEN&by=eve&from=x&at=yesterday");
        redis.call("HSET", hash, "other", "breaker=ledger&state=FORCED_OPEN&by=eve&from=x&at=2026-01-01T00:00:00Z");
        // a real command after them: once b applied it, b has handled the messages before it (one channel, in order)
        a.getBean(GuardEndpoint.class).changeState("probe", "FORCED_OPEN", null, null, null, null, "fleet");
        awaitWithinBound(() -> state(b, "probe") == State.FORCED_OPEN);
        b.getBean(FleetBreakers.class).refresh();

        assertThat(state(b, "ledger")).isEqualTo(State.CLOSED);
        assertThat(b.getBean(FleetBreakers.class).commandOf("ledger")).isEmpty();
        // still listening: the next well-formed command is applied
        a.getBean(GuardEndpoint.class).changeState("ledger", "FORCED_OPEN", null, null, null, null, "fleet");
        awaitWithinBound(() -> state(b, "ledger") == State.FORCED_OPEN);
        a.getBean(GuardEndpoint.class).changeState("ledger", "CLOSED", null, null, null, null, "fleet");
        a.getBean(GuardEndpoint.class).changeState("probe", "CLOSED", null, null, null, null, "fleet");
        redis.call("HDEL", hash, "other");
    }

    @Test
    void aCommandMissedByPubSubIsPickedUpByThePeriodicReRead() {
        breaker(a, "audit");
        breaker(b, "audit");
        // Written into the hash without the message, as if both instances had missed it.
        redis.call("HSET", redis.keyPrefix() + "{guard-breakers}", "audit",
                new FleetCommand("audit", FleetState.FORCED_OPEN, "ops", "elsewhere",
                        java.time.Instant.parse("2026-01-01T00:00:00Z")).encode());

        for (AnnotationConfigApplicationContext instance : List.of(a, b)) {
            awaitWithinBound(() -> state(instance, "audit") == State.FORCED_OPEN);
        }
        a.getBean(GuardEndpoint.class).changeState("audit", "CLOSED", null, null, null, null, "fleet");
        awaitWithinBound(() -> state(b, "audit") == State.CLOSED);
    }

    @Test
    void everyInstanceShowsWhichInstanceIsInWhichStateAndAStoppedInstanceDropsOut() {
        AnnotationConfigApplicationContext third = instance("third", true);
        breaker(a, "inventory");
        breaker(third, "inventory");
        breaker(b, "inventory");
        b.getBean(CircuitBreakerRegistry.class).circuitBreaker("inventory").transitionToForcedOpenState();

        // reported every poll interval (1 s) and read every poll interval: twice the bound, with room for the load
        await().atMost(VIEW_BOUND).until(() -> {
            Map<String, Map<String, String>> instances = fleetOf(a).instances();
            return "FORCED_OPEN".equals(instances.getOrDefault("b", Map.of()).get("inventory"))
                    && "CLOSED".equals(instances.getOrDefault("a", Map.of()).get("inventory"))
                    && "CLOSED".equals(instances.getOrDefault("third", Map.of()).get("inventory"));
        });
        assertThat(fleetOf(a).instance()).isEqualTo("a");
        assertThat(fleetOf(a).readAt()).isNotNull();

        third.close();
        started.remove(third);
        // a report lives three poll intervals
        await().atMost(VIEW_BOUND.plus(BOUND.multipliedBy(3)))
                .until(() -> !fleetOf(a).instances().containsKey("third"));
        b.getBean(CircuitBreakerRegistry.class).circuitBreaker("inventory").transitionToClosedState();
    }

    @Test
    void aBreakerThatSharesItsOpeningsOpensOnTheOtherInstanceForTheSameWait() {
        for (AnnotationConfigApplicationContext instance : List.of(a, b)) {
            breaker(instance, "steady");
            breaker(instance, "flaky");
        }

        failTwice(a, "steady");
        failTwice(a, "flaky");

        awaitWithinBound(() -> state(b, "flaky") == State.OPEN);
        assertThat(b.getBean(CircuitBreakerRegistry.class).circuitBreaker("flaky").remainingOpenTime())
                .as("the same wait, less the time the message took").isBetween(Duration.ofSeconds(25),
                        Duration.ofSeconds(30));
        assertThat(b.getBean(FleetBreakers.class).commandOf("flaky").orElseThrow().from()).isEqualTo("a");
        assertThat(state(b, "steady")).as("share-open is off by default").isEqualTo(State.CLOSED);
        assertThat(a.getBean(FleetBreakers.class).commandOf("flaky").orElseThrow().from())
                .as("b does not send the opening back").isEqualTo("a");

        a.getBean(GuardEndpoint.class).changeState("flaky", "CLOSED", null, null, null, null, "fleet");
        a.getBean(CircuitBreakerRegistry.class).circuitBreaker("steady").transitionToClosedState();
        awaitWithinBound(() -> state(b, "flaky") == State.CLOSED);
    }

    private static void failTwice(AnnotationConfigApplicationContext instance, String name) {
        CircuitBreakerRegistry breakers = instance.getBean(CircuitBreakerRegistry.class);
        for (int i = 0; i < 2; i++) {
            breakers.circuitBreaker(name).acquire().onError(new IllegalStateException("down"));
        }
        assertThat(breakers.circuitBreaker(name).state()).isEqualTo(State.OPEN);
    }

    private static GuardEndpoint.FleetReport fleetOf(AnnotationConfigApplicationContext instance) {
        return instance.getBean(GuardEndpoint.class).guard().fleet();
    }

    private static void breaker(AnnotationConfigApplicationContext instance, String name) {
        instance.getBean(CircuitBreakerRegistry.class).circuitBreaker(name);
    }

    private static State state(AnnotationConfigApplicationContext instance, String name) {
        return instance.getBean(CircuitBreakerRegistry.class).circuitBreaker(name).state();
    }

    /**
     * Polls for at most three times the bound (the poll interval plus a round trip, with room for a loaded machine).
     */
    private static void awaitWithinBound(BooleanSupplier condition) {
        await().atMost(BOUND.multipliedBy(3)).pollInterval(Duration.ofMillis(20))
                .alias("applied within " + BOUND.multipliedBy(3)).until(condition::getAsBoolean);
    }
}
