package io.guard.ratelimit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.guard.breaker.CircuitBreaker;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.ratelimit.local.LocalRateLimiter;
import io.guard.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 22 item 3: every switch to a failure policy is loud (one WARN, rate-limited) and shows in health. */
class FailoverWarningsTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ManualClock breakerClock = new ManualClock();
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.builder().clock(breakerClock)
            .scheduler(breakerClock).build();
    private final CircuitBreaker breaker = breakers.circuitBreaker("guard-rate-limit-backend",
            FailoverRateLimiter.recommendedBreakerConfig());
    private final SwitchableBackend redis = new SwitchableBackend(new LocalRateLimiter(clock));
    private final FailoverRateLimiter failover = new FailoverRateLimiter(redis, new LocalRateLimiter(clock), breaker,
            clock, breakerClock, ClientLoad.IDLE);
    private final RateLimiterRegistry registry = new RateLimiterRegistry(failover, clock, 20);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final List<Logger> loggers = List.of((Logger) LoggerFactory.getLogger(RateLimiterRegistry.class),
            (Logger) LoggerFactory.getLogger(FailoverRateLimiter.class));

    @BeforeEach
    void capture() {
        logged.start();
        loggers.forEach(logger -> logger.addAppender(logged));
    }

    @AfterEach
    void close() {
        loggers.forEach(logger -> logger.detachAppender(logged));
        registry.close();
        failover.close();
        breakers.close();
    }

    private void register(String name, BackendFailurePolicy onFailure) {
        registry.register(new RateLimitPolicy(name, Algorithm.SLIDING_LOG, 5, Duration.ofSeconds(60), 0,
                Scope.GLOBAL, TimeSource.CLIENT, onFailure));
    }

    private List<String> warnings() {
        return logged.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void theFirstDecisionAFailurePolicyMakesLogsOneWarnNamingTheLimitTheReasonAndThePolicy() {
        register("order-submit", BackendFailurePolicy.FAIL_OPEN);
        redis.failing(true);

        registry.tryAcquire("order-submit", "user-1", 1);

        assertThat(warnings()).containsExactly("Rate limit 'order-submit': backend switchable could not decide "
                + "(error: RateLimiterBackendException <- IllegalStateException); on-backend-failure FAIL_OPEN allowed "
                + "the call without counting it");
        assertThat(warnings().get(0)).as("never the resolved key").doesNotContain("user-1");
    }

    @Test
    void aStormOfFailuresWritesOneLinePerLimitEveryTenSecondsCountingTheLinesHeldBack() {
        register("order-submit", BackendFailurePolicy.FAIL_CLOSED);
        register("browse", BackendFailurePolicy.LOCAL);
        breaker.transitionToDisabledState(); // every call reaches the failing backend, none is refused by the breaker
        redis.failing(true);

        for (int i = 0; i < 1000; i++) {
            assertThat(registry.tryAcquireAsync("order-submit", "k", 1).toCompletableFuture())
                    .isCompletedExceptionally();
            registry.tryAcquire("browse", "k" + i, 1);
        }
        assertThat(warnings()).hasSize(2).anyMatch(line -> line.contains("FAIL_CLOSED refused the call"))
                .anyMatch(line -> line.contains("LOCAL counted the call in this instance only"));

        clock.advance(Duration.ofSeconds(10));
        registry.tryAcquireAsync("order-submit", "k", 1);

        assertThat(warnings()).hasSize(3);
        assertThat(warnings().get(2)).endsWith("refused the call (999 more in the last 10 s not logged)");
    }

    @Test
    void theBreakerOpeningAndClosingLogOneWarnEach() {
        register("order-submit", BackendFailurePolicy.FAIL_OPEN);
        redis.failing(true);
        for (int i = 0; i < 10; i++) {
            registry.tryAcquire("order-submit", "k", 1);
        }
        assertThat(breaker.state()).isEqualTo(State.OPEN);
        List<String> opened = warnings().stream().filter(line -> line.contains("circuit breaker")).toList();
        assertThat(opened).containsExactly("Rate-limit backend switchable: circuit breaker 'guard-rate-limit-backend' "
                + "opened (CLOSED -> OPEN) after RateLimiterBackendException <- IllegalStateException; until it "
                + "closes no decision asks switchable and every limit follows its on-backend-failure policy");

        redis.failing(false);
        breakerClock.advance(Duration.ofSeconds(2));
        registry.tryAcquire("order-submit", "k", 1);

        assertThat(breaker.state()).isEqualTo(State.CLOSED);
        assertThat(warnings()).last().isEqualTo("Rate-limit backend switchable: circuit breaker "
                + "'guard-rate-limit-backend' closed (OPEN -> CLOSED); switchable decides again");
    }

    @Test
    void healthSaysSinceWhenAndWhyDecisionsFollowTheFailurePolicy() {
        register("order-submit", BackendFailurePolicy.FAIL_OPEN);
        breaker.transitionToDisabledState(); // the breaker's own view is not what this test is about
        Instant firstFailure = clock.instant();
        redis.failing(true);
        registry.tryAcquire("order-submit", "k", 1);
        clock.advance(Duration.ofSeconds(1));
        registry.tryAcquire("order-submit", "k", 1);

        BackendHealth down = registry.backendHealth();
        assertThat(down.up()).isFalse();
        assertThat(down.downSince()).as("since the first failure of the run").isEqualTo(firstFailure);
        assertThat(down.lastErrorTime()).isEqualTo(firstFailure.plusSeconds(1));
        assertThat(down.reason()).isEqualTo("error");

        redis.failing(false);
        registry.tryAcquire("order-submit", "k", 1);
        assertThat(registry.backendHealth().up()).isTrue();
        assertThat(registry.backendHealth().downSince()).isNull();
    }

    @Test
    void reasonsAreAFewWordsWhateverTheClientsExceptions() {
        assertThat(BackendFailureReason.of(new RateLimiterBackendException("x",
                new java.util.concurrent.TimeoutException()))).isEqualTo(BackendFailureReason.TIMEOUT);
        assertThat(BackendFailureReason.of(new RateLimiterBackendException("x",
                new java.net.ConnectException("refused")))).isEqualTo(BackendFailureReason.CONNECTION);
        assertThat(BackendFailureReason.of(new RateLimiterBackendException("x",
                new io.guard.breaker.CallNotPermittedException("b", State.OPEN, Duration.ofSeconds(1)))))
                .isEqualTo(BackendFailureReason.BREAKER_OPEN);
        assertThat(BackendFailureReason.BREAKER_OPEN.tag()).isEqualTo("breaker-open");
    }
}
