package io.guard.spring.aop;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @RateLimit(fallbackMethod = ...)} on a real Redis: a refused call is answered by the refusing limit's
 * fallback (with the refusal as its last argument) instead of a {@link RateLimitExceededException}, for plain,
 * CompletionStage, Mono and Flux methods; the method itself does not run; a limit without a fallback still refuses.
 */
@RedisTest
class RateLimitFallbackIT {

    private static AnnotationConfigApplicationContext context;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(Quotes.class)
    static class App {
    }

    static class Quotes {
        private final AtomicInteger calls = new AtomicInteger();
        private final AtomicReference<RateLimitExceededException> lastRefusal = new AtomicReference<>();

        /** The refusal the plain fallback was last called with. */
        public RateLimitExceededException lastRefusal() {
            return lastRefusal.get();
        }

        /** How often a limited method body ran (a method, because the bean is a class proxy). */
        public int calls() {
            return calls.get();
        }

        @RateLimit(name = "quote", key = "#user", rate = 2, interval = "60s", fallbackMethod = "cached")
        public String quote(String user) {
            calls.incrementAndGet();
            return "live " + user;
        }

        @SuppressWarnings("unused")
        private String cached(String user, RateLimitExceededException refusal) {
            lastRefusal.set(refusal);
            return "cached " + user + " (" + refusal.policyName() + ", " + refusal.decision().remaining() + " left)";
        }

        @RateLimit(name = "quote-async", key = "#user", rate = 1, interval = "60s", fallbackMethod = "cachedAsync")
        public CompletableFuture<String> quoteAsync(String user) {
            calls.incrementAndGet();
            return CompletableFuture.completedFuture("live " + user);
        }

        @SuppressWarnings("unused")
        private CompletableFuture<String> cachedAsync(String user) {
            return CompletableFuture.completedFuture("cached " + user);
        }

        @RateLimit(name = "quote-mono", key = "#user", rate = 1, interval = "60s", fallbackMethod = "cachedMono")
        public Mono<String> quoteMono(String user) {
            return Mono.fromSupplier(() -> {
                calls.incrementAndGet();
                return "live " + user;
            });
        }

        @SuppressWarnings("unused")
        private Mono<String> cachedMono(RuntimeException refusal) {
            return Mono.just("cached " + ((RateLimitExceededException) refusal).policyName());
        }

        @RateLimit(name = "quote-flux", key = "#user", rate = 1, interval = "60s", fallbackMethod = "cachedFlux")
        public Flux<String> quoteFlux(String user) {
            return Flux.defer(() -> {
                calls.incrementAndGet();
                return Flux.just("live", user);
            });
        }

        @SuppressWarnings("unused")
        private Flux<String> cachedFlux(String user, Throwable refusal) {
            return Flux.just("cached", user);
        }

        /** The outer limit has a fallback, the inner one does not: only the outer one's refusal is answered. */
        @RateLimit(name = "report-wide", key = "'wide'", rate = 3, interval = "60s", fallbackMethod = "later")
        @RateLimit(name = "report-narrow", key = "#user", rate = 1, interval = "60s")
        public String report(String user) {
            calls.incrementAndGet();
            return "report " + user;
        }

        @SuppressWarnings("unused")
        private String later(String user) {
            return "later " + user;
        }

        /** Two limits on a Mono, decided together without blocking: a refused call spends nothing on either. */
        @RateLimit(name = "report-wide-mono", key = "'wide'", rate = 3, interval = "60s")
        @RateLimit(name = "report-narrow-mono", key = "#user", rate = 1, interval = "60s")
        public Mono<String> reportMono(String user) {
            return Mono.fromSupplier(() -> "report " + user);
        }

        @RateLimit(name = "failing-fallback", key = "#user", rate = 1, interval = "60s", fallbackMethod = "broken")
        public String failing(String user) {
            return "live";
        }

        @RateLimit(name = "nested", key = "#user", rate = 10, interval = "60s", fallbackMethod = "never")
        public String nested(String user) {
            throw downstreamRefusal("nested");
        }

        @RateLimit(name = "nested-mono", key = "#user", rate = 10, interval = "60s", fallbackMethod = "neverMono")
        public Mono<String> nestedMono(String user) {
            return Mono.error(downstreamRefusal("nested-mono"));
        }

        @RateLimit(name = "nested-async", key = "#user", rate = 10, interval = "60s", fallbackMethod = "neverAsync")
        public CompletableFuture<String> nestedAsync(String user) {
            return CompletableFuture.failedFuture(downstreamRefusal("nested-async"));
        }

        @SuppressWarnings("unused")
        private String never(String user, RateLimitExceededException refusal) {
            return "fallback";
        }

        @SuppressWarnings("unused")
        private Mono<String> neverMono(String user, RateLimitExceededException refusal) {
            return Mono.just("fallback");
        }

        @SuppressWarnings("unused")
        private CompletableFuture<String> neverAsync(String user, RateLimitExceededException refusal) {
            return CompletableFuture.completedFuture("fallback");
        }

        @SuppressWarnings("unused")
        private String broken(String user) {
            throw new IllegalStateException("fallback for " + user + " failed");
        }
    }

    /** A refusal of the same name raised by a nested call: the method's outcome, not this call's refusal. */
    static RateLimitExceededException downstreamRefusal(String name) {
        return new RateLimitExceededException(RateLimitPolicy.of(name, Algorithm.SLIDING_LOG, 1, Duration.ofSeconds(1)),
                new Decision(false, 0, Duration.ofSeconds(1), Duration.ofSeconds(1), 1), "refused downstream");
    }

    @BeforeAll
    static void start(RedisEndpoint redis) {
        context = RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> c.register(App.class));
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void aRefusedPlainCallIsAnsweredByTheFallbackWithTheRefusal() {
        Quotes quotes = context.getBean(Quotes.class);
        int before = quotes.calls();
        assertThat(quotes.quote("ann")).isEqualTo("live ann");
        assertThat(quotes.quote("ann")).isEqualTo("live ann");

        assertThat(quotes.quote("ann")).isEqualTo("cached ann (quote, 0 left)");
        assertThat(quotes.lastRefusal().decision().retryAfter())
                .isPositive().isLessThanOrEqualTo(Duration.ofSeconds(60));
        assertThat(quotes.quote("bob")).isEqualTo("live bob");
        assertThat(quotes.calls() - before).as("the refused call did not run the method").isEqualTo(3);
    }

    @Test
    void aRefusedCompletionStageIsAnsweredByTheFallbacksStage() {
        Quotes quotes = context.getBean(Quotes.class);
        int before = quotes.calls();
        assertThat(quotes.quoteAsync("ann").join()).isEqualTo("live ann");
        assertThat(quotes.quoteAsync("ann").join()).isEqualTo("cached ann");
        assertThat(quotes.calls() - before).isEqualTo(1);
    }

    @Test
    void aRefusedMonoOrFluxIsAnsweredByTheFallbacksPublisherOnEachSubscription() {
        Quotes quotes = context.getBean(Quotes.class);
        int before = quotes.calls();
        Mono<String> mono = quotes.quoteMono("ann");
        assertThat(mono.block(Duration.ofSeconds(10))).isEqualTo("live ann");
        assertThat(mono.block(Duration.ofSeconds(10))).as("a second subscription asks again")
                .isEqualTo("cached quote-mono");

        assertThat(quotes.quoteFlux("ann").collectList().block(Duration.ofSeconds(10)))
                .containsExactly("live", "ann");
        assertThat(quotes.quoteFlux("ann").collectList().block(Duration.ofSeconds(10)))
                .containsExactly("cached", "ann");
        assertThat(quotes.calls() - before).isEqualTo(2);
    }

    @Test
    void onlyTheRefusingLimitsFallbackAnswersALimitWithoutOneStillRefuses() {
        Quotes quotes = context.getBean(Quotes.class);
        assertThat(quotes.report("ann")).isEqualTo("report ann");
        assertThatThrownBy(() -> quotes.report("ann"))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.policyName()).isEqualTo("report-narrow"));
        assertThat(quotes.report("bob")).isEqualTo("report bob");
        // The limits are decided all-or-nothing: the refused call spent nothing on "report-wide", which has one left.
        assertThat(quotes.report("cid")).isEqualTo("report cid");
        assertThat(quotes.report("dan")).isEqualTo("later dan");
    }

    @Test
    void aMonoWithTwoLimitsIsDecidedAllOrNothingWithoutBlocking() {
        Quotes quotes = context.getBean(Quotes.class);
        assertThat(quotes.reportMono("ann").block(Duration.ofSeconds(10))).isEqualTo("report ann");
        assertThatThrownBy(() -> quotes.reportMono("ann").block(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.policyName()).isEqualTo("report-narrow-mono"));
        assertThat(quotes.reportMono("bob").block(Duration.ofSeconds(10))).isEqualTo("report bob");
        // The refused call spent nothing on "report-wide-mono": its third permit is still there for cid.
        assertThat(quotes.reportMono("cid").block(Duration.ofSeconds(10))).isEqualTo("report cid");
        assertThatThrownBy(() -> quotes.reportMono("dan").block(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.policyName()).isEqualTo("report-wide-mono"));
    }

    @Test
    void whatTheFallbackThrowsIsTheCallsOutcome() {
        Quotes quotes = context.getBean(Quotes.class);
        assertThat(quotes.failing("ann")).isEqualTo("live");
        assertThatThrownBy(() -> quotes.failing("ann"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("fallback for ann failed");
    }

    @Test
    void aRefusalThrownByTheMethodItselfNeverReachesItsLimitsFallback() {
        Quotes quotes = context.getBean(Quotes.class);
        assertThatThrownBy(() -> quotes.nested("ann"))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.getMessage()).isEqualTo("refused downstream"));
        assertThatThrownBy(() -> quotes.nestedMono("ann").block(Duration.ofSeconds(10)))
                .isInstanceOfSatisfying(RateLimitExceededException.class,
                        e -> assertThat(e.getMessage()).isEqualTo("refused downstream"));
        assertThatThrownBy(() -> quotes.nestedAsync("ann").join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(RateLimitExceededException.class);
    }
}
