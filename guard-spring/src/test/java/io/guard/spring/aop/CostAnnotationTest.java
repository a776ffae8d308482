package io.guard.spring.aop;

import io.guard.ratelimit.Quota;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.ratelimit.RateLimitQuotas;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static io.guard.spring.aop.StartUpFailures.assertStartUpFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @RateLimit(cost = ...)} on the in-process backend: what a call consumed, known once it returned, is charged
 * beyond the permits taken at admission for plain, CompletionStage and Mono methods, a debt refuses the following
 * calls, a call that threw is charged as {@code costOnFailure} says, a cost that cannot be evaluated leaves the
 * estimate, and start-up refuses a cost wherever it could not be charged, naming method, attribute and value.
 * Every limit: 60 tokens per minute (one a second), so nothing refills noticeably while a test runs.
 */
class CostAnnotationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    /** What a language model answered, and the tokens it took. */
    record Completion(String text, long tokens) {
    }

    /** Thrown with the tokens a failed completion consumed anyway. */
    static class CompletionFailed extends RuntimeException {
        final long tokens;

        CompletionFailed(long tokens) {
            super("failed after " + tokens + " tokens");
            this.tokens = tokens;
        }

        public long getTokens() {
            return tokens;
        }
    }

    static class Gateway {
        @RateLimit(name = "tokens", key = "#tenant", rate = 60, interval = "60s", algorithm = "TOKEN_BUCKET",
                cost = "#result.tokens()")
        public Completion complete(String tenant, long tokens) {
            return new Completion("ok", tokens);
        }

        @RateLimit(name = "tokens-async", key = "#tenant", rate = 60, interval = "60s", algorithm = "TOKEN_BUCKET",
                permits = "5", cost = "#result.tokens()")
        public CompletableFuture<Completion> completeAsync(String tenant, long tokens) {
            return CompletableFuture.supplyAsync(() -> new Completion("ok", tokens));
        }

        @RateLimit(name = "tokens-mono", key = "#tenant", rate = 60, interval = "60s", algorithm = "TOKEN_BUCKET",
                cost = "#result.tokens()")
        public Mono<Completion> completeMono(String tenant, long tokens) {
            return Mono.fromSupplier(() -> new Completion("ok", tokens));
        }

        @RateLimit(name = "tokens-estimate", key = "#tenant", rate = 60, interval = "60s",
                algorithm = "TOKEN_BUCKET", permits = "10", cost = "#result.tokens()")
        public Completion failsKeepingTheEstimate(String tenant) {
            throw new CompletionFailed(30);
        }

        @RateLimit(name = "tokens-none", key = "#tenant", rate = 60, interval = "60s", algorithm = "TOKEN_BUCKET",
                permits = "10", cost = "#result.tokens()", costOnFailure = "none")
        public Completion failsFreely(String tenant) {
            throw new CompletionFailed(30);
        }

        @RateLimit(name = "tokens-failed", key = "#tenant", rate = 60, interval = "60s",
                algorithm = "TOKEN_BUCKET", permits = "10", cost = "#result.tokens()",
                costOnFailure = "#exception.tokens")
        public CompletableFuture<Completion> failsCounting(String tenant) {
            return CompletableFuture.failedFuture(new CompletionFailed(30));
        }

        @RateLimit(name = "tokens-broken", key = "#tenant", rate = 60, interval = "60s",
                algorithm = "TOKEN_BUCKET", permits = "3", cost = "#result.tokens() - 100")
        public Completion negativeCost(String tenant) {
            return new Completion("ok", 5);
        }
    }

    private static Quota quota(org.springframework.context.ApplicationContext context, String limit, String key) {
        return context.getBean(RateLimitQuotas.class).inspect(limit, key);
    }

    @Test
    void whatAPlainCallConsumedIsChargedAndADebtRefusesTheNextCall() {
        runner.withBean(Gateway.class).run(context -> {
            Gateway gateway = context.getBean(Gateway.class);

            assertThat(gateway.complete("acme", 40).tokens()).isEqualTo(40);
            assertThat(quota(context, "tokens", "acme").remaining()).isEqualTo(20);
            assertThat(gateway.complete("acme", 35).text()).as("admitted on 20 left, then 15 in debt").isEqualTo("ok");

            assertThat(quota(context, "tokens", "acme").debt()).isEqualTo(15);
            assertThatThrownBy(() -> gateway.complete("acme", 1))
                    .isInstanceOfSatisfying(RateLimitExceededException.class, refusal -> assertThat(
                            refusal.decision().retryAfter()).as("the debt and the permit, a second each")
                            .isBetween(Duration.ofSeconds(15), Duration.ofSeconds(16)));
            assertThat(quota(context, "tokens", "other").remaining()).as("another tenant").isEqualTo(60);
        });
    }

    @Test
    void aCompletionStageAndAMonoAreChargedWithWhatTheyCompletedWith() {
        runner.withBean(Gateway.class).run(context -> {
            Gateway gateway = context.getBean(Gateway.class);

            Completion async = gateway.completeAsync("acme", 2).join();
            Completion mono = gateway.completeMono("acme", 70).block(Duration.ofSeconds(10));

            assertThat(async.tokens()).isEqualTo(2);
            assertThat(quota(context, "tokens-async", "acme").remaining()).as("5 taken, 3 given back")
                    .isEqualTo(58);
            assertThat(mono.tokens()).isEqualTo(70);
            assertThat(quota(context, "tokens-mono", "acme").debt()).isEqualTo(10);
            assertThatThrownBy(() -> gateway.completeMono("acme", 1).block(Duration.ofSeconds(10)))
                    .isInstanceOf(RateLimitExceededException.class);
        });
    }

    @Test
    void aCallThatThrewIsChargedAsCostOnFailureSays() {
        runner.withBean(Gateway.class).run(context -> {
            Gateway gateway = context.getBean(Gateway.class);

            assertThatThrownBy(() -> gateway.failsKeepingTheEstimate("acme")).isInstanceOf(CompletionFailed.class);
            assertThatThrownBy(() -> gateway.failsFreely("acme")).isInstanceOf(CompletionFailed.class);
            assertThatThrownBy(() -> gateway.failsCounting("acme").join()).hasCauseInstanceOf(CompletionFailed.class);

            assertThat(quota(context, "tokens-estimate", "acme").remaining()).as("estimate, by default")
                    .isEqualTo(50);
            assertThat(quota(context, "tokens-none", "acme").remaining()).as("none: given back").isEqualTo(60);
            assertThat(quota(context, "tokens-failed", "acme").remaining()).as("what the exception says")
                    .isEqualTo(30);
        });
    }

    @Test
    void aCostThatIsNoCountLeavesTheEstimateAndTheCallsOutcome() {
        runner.withBean(Gateway.class).run(context -> {
            Gateway gateway = context.getBean(Gateway.class);

            assertThat(gateway.negativeCost("acme").tokens()).isEqualTo(5);
            assertThat(gateway.negativeCost("acme").tokens()).isEqualTo(5);

            assertThat(quota(context, "tokens-broken", "acme").remaining()).isEqualTo(54);
        });
    }

    static class SlidingLog {
        @RateLimit(name = "log", rate = 60, interval = "60s", cost = "#result")
        public long call() {
            return 1;
        }
    }

    static class Leased {
        @RateLimit(name = "leased", rate = 60, interval = "60s", algorithm = "TOKEN_BUCKET", cost = "#result")
        public long call() {
            return 1;
        }
    }

    static class Streaming {
        @RateLimit(name = "stream", rate = 60, interval = "60s", algorithm = "TOKEN_BUCKET", cost = "#result")
        public Flux<Long> call() {
            return Flux.just(1L, 2L);
        }
    }

    static class FailureWithoutCost {
        @RateLimit(name = "no-cost", rate = 60, interval = "60s", costOnFailure = "none")
        public long call() {
            return 1;
        }
    }

    static class UnknownVariable {
        @RateLimit(name = "typo", rate = 60, interval = "60s", algorithm = "TOKEN_BUCKET", cost = "#reslt.tokens")
        public long call() {
            return 1;
        }
    }

    @Test
    void startUpRefusesACostThatCouldNotBeCharged() {
        assertStartUpFails(runner.withBean(SlidingLog.class), "SlidingLog.call()", "cost '#result'",
                "needs a TOKEN_BUCKET limit", "'log' counts with SLIDING_LOG");
        assertStartUpFails(runner.withBean(Leased.class)
                        .withPropertyValues("guard.rate-limit.instances.leased.lease=10"),
                "Leased.call()", "cannot be charged on a leased limit (lease=10)");
        assertStartUpFails(runner.withBean(Streaming.class), "Streaming.call()", "returns a Flux");
        assertStartUpFails(runner.withBean(FailureWithoutCost.class), "costOnFailure 'none'",
                "is set without a cost");
        assertStartUpFails(runner.withBean(UnknownVariable.class), "reslt");
    }
}
