package io.guard.spring.web;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.State;
import io.guard.bulkhead.BulkheadFullException;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.refusal.Refusal;
import io.guard.refusal.RefusalKind;
import io.guard.spring.ratelimit.InvalidPermitsException;
import io.guard.spring.ratelimit.MissingRateLimitKeyException;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.ExceptionHandler;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The refusal table against the places that must name each refusal type on their own (an {@code @ExceptionHandler}
 * needs its type written out): a kind added to {@link RefusalKind} without its row, its WebFlux advice or the advice's
 * bean fails here, not in an application.
 */
class RefusalAnswersTest {

    @Test
    void everyKindHasAnAnswerForItsOwnExceptionType() {
        for (RefusalKind kind : RefusalKind.values()) {
            assertThat(Refusal.class).as("%s's exception type", kind)
                    .isAssignableFrom(RefusalAnswers.exceptionType(kind));
            assertThat(RefusalAnswers.problemType(kind).toString()).startsWith("urn:problem-type:guard:");
        }
    }

    @Test
    void eachRefusalReportsTheKindItIsAnsweredAs() {
        List<Refusal> refusals = List.of(
                new CallNotPermittedException("b", State.OPEN, Duration.ofSeconds(3)),
                new BulkheadFullException("h", 2),
                new RateLimiterBackendException("down", null),
                new MissingRateLimitKeyException("p", "no key"),
                new InvalidPermitsException("p", "too many"));
        for (Refusal refusal : refusals) {
            assertThat(RefusalAnswers.exceptionType(refusal.refusalKind())).isEqualTo(refusal.getClass());
            assertThat(RefusalAnswers.guardType((Throwable) refusal)).hasValue(((Throwable) refusal).getClass());
        }
        assertThat(RefusalAnswers.guardType(new IllegalStateException())).isEmpty();
    }

    @Test
    void aRefusalWrappedByAFrameworkIsFoundInTheCauseChain() {
        BulkheadFullException full = new BulkheadFullException("h", 2);
        assertThat(RefusalAnswers.refusal(new RuntimeException("wrapped", full))).isSameAs(full);
        assertThat(RefusalAnswers.refusal(new RuntimeException("plain"))).isNull();
    }

    @Test
    void retryAfterFollowsTheHint() {
        assertThat(RefusalAnswers.of(new CallNotPermittedException("b", State.OPEN, Duration.ofSeconds(3)), "/x")
                .orElseThrow().getHeaders().getFirst("Retry-After")).isEqualTo("3");
        assertThat(RefusalAnswers.of(new CallNotPermittedException("b", State.FORCED_OPEN, Duration.ZERO), "/x")
                .orElseThrow().getHeaders().getFirst("Retry-After")).isNull();
        assertThat(RefusalAnswers.of(new BulkheadFullException("h", 2), "/x")
                .orElseThrow().getHeaders().getFirst("Retry-After")).isNull();
    }

    @Test
    void everyKindHasAWebFluxAdviceAndItsBean() throws ClassNotFoundException {
        Set<Class<?>> adviceTypes = Arrays.stream(GuardReactiveAdvice.class.getDeclaredClasses())
                .filter(GuardReactiveAdvice.class::isAssignableFrom)
                .collect(Collectors.toSet());
        Set<Class<?>> answered = adviceTypes.stream()
                .flatMap(type -> Arrays.stream(type.getDeclaredMethods()))
                .map(method -> method.getAnnotation(ExceptionHandler.class))
                .filter(annotation -> annotation != null)
                .flatMap(annotation -> Arrays.stream(annotation.value()))
                .collect(Collectors.toSet());
        Set<Class<?>> kinds = Stream.of(RefusalKind.values()).map(RefusalAnswers::exceptionType)
                .collect(Collectors.toSet());
        assertThat(answered).as("the exception types of GuardReactiveAdvice's nested advices")
                .containsExactlyInAnyOrderElementsOf(kinds);

        Class<?> configuration = Class.forName("io.guard.spring.autoconfigure.GuardWebFluxConfiguration");
        Set<Class<?>> beans = Arrays.stream(configuration.getDeclaredMethods())
                .filter(method -> method.isAnnotationPresent(Bean.class))
                .map(Method::getReturnType)
                .collect(Collectors.toSet());
        assertThat(beans).as("GuardWebFluxConfiguration's beans").containsAll(adviceTypes);
    }
}
