package io.guard.spring.web;

import io.guard.breaker.CallNotPermittedException;
import io.guard.bulkhead.BulkheadFullException;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.spring.ratelimit.InvalidPermitsException;
import io.guard.spring.ratelimit.MissingRateLimitKeyException;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.util.ClassUtils;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.ExceptionHandlerMethodResolver;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import java.lang.reflect.Method;
import java.util.function.Supplier;

/**
 * WebFlux's {@code @ExceptionHandler} resolution takes the first applicable advice that maps an exception at all, so
 * one Guard advice cannot both come after the application's handler for a Guard exception (which must win) and
 * before the application's catch-all (which must not turn a 429 into a 500) when one application advice holds both.
 * Hence one advice per Guard exception type, each ordered on its own among the application's advice: just ahead of
 * the first advice that would answer its type with a catch-all, else just behind the last advice that maps its type
 * itself, else at {@link GuardReactiveExceptionHandler#ORDER}. Handlers in the controller itself come before any
 * advice and win anyway. {@code @ExceptionHandler} needs its type written out, so this is the one place besides
 * {@link RefusalAnswers} that names each refusal type (a test checks that they agree); the answers come from the table.
 */
public abstract class GuardReactiveAdvice implements Ordered {

    private final Class<? extends Throwable> guardType;
    private final ApplicationContext context;
    final GuardReactiveExceptionHandler answers;
    private volatile Integer order;

    GuardReactiveAdvice(Class<? extends Throwable> guardType, GuardReactiveExceptionHandler answers,
                        ApplicationContext context) {
        this.guardType = guardType;
        this.answers = answers;
        this.context = context;
    }

    @Override
    public int getOrder() {
        Integer current = order;
        if (current == null) {
            current = placeAmongApplicationAdvice();
            order = current;
        }
        return current;
    }

    private int placeAmongApplicationAdvice() {
        Integer firstCatchAll = null;
        Integer lastOwn = null;
        for (String name : context.getBeanNamesForAnnotation(ControllerAdvice.class)) {
            Class<?> type = context.getType(name);
            if (type == null || GuardReactiveAdvice.class.isAssignableFrom(type)) {
                continue;
            }
            Method method = new ExceptionHandlerMethodResolver(ClassUtils.getUserClass(type))
                    .resolveMethodByExceptionType(guardType);
            if (method == null) {
                continue;
            }
            int adviceOrder = orderOf(name);
            if (ApplicationExceptionHandlers.mappedTypes(method).stream().anyMatch(guardType::isAssignableFrom)) {
                lastOwn = lastOwn == null ? adviceOrder : Math.max(lastOwn, adviceOrder);
            } else {
                firstCatchAll = firstCatchAll == null ? adviceOrder : Math.min(firstCatchAll, adviceOrder);
            }
        }
        if (firstCatchAll != null) {
            return firstCatchAll == Ordered.HIGHEST_PRECEDENCE ? firstCatchAll : firstCatchAll - 1;
        }
        if (lastOwn != null) {
            // On a tie (lowest precedence) Guard's advice, registered after the application's, still comes last.
            return lastOwn == Ordered.LOWEST_PRECEDENCE ? lastOwn : lastOwn + 1;
        }
        return GuardReactiveExceptionHandler.ORDER;
    }

    /** The order Spring gives an advice bean: {@link Ordered}, else {@code @Order}, else lowest precedence. */
    private int orderOf(String beanName) {
        if (context.isSingleton(beanName) && context.getBean(beanName) instanceof Ordered ordered) {
            return ordered.getOrder();
        }
        Order annotation = context.findAnnotationOnBean(beanName, Order.class);
        return annotation != null ? annotation.value() : Ordered.LOWEST_PRECEDENCE;
    }

    /**
     * The problem detail for API clients; a browser's refusal goes on, past every advice, to
     * {@link GuardWebExceptionHandler}, which hands it to Spring Boot's error page.
     */
    static Mono<ResponseEntity<ProblemDetail>> answerApiClients(Throwable refusal, ServerWebExchange exchange,
                                                                 Supplier<ResponseEntity<ProblemDetail>> answer) {
        // getValuesAsList: the same method on Spring Framework 6.2 and 7 (getOrEmpty changed its parameter type).
        if (HtmlClients.prefersHtml(exchange.getRequest().getHeaders().getValuesAsList(HttpHeaders.ACCEPT))) {
            return Mono.error(refusal);
        }
        return Mono.just(answer.get());
    }

    /** 429 for a refused limit. */
    @RestControllerAdvice
    public static final class RateLimited extends GuardReactiveAdvice {
        public RateLimited(GuardReactiveExceptionHandler answers, ApplicationContext context) {
            super(RateLimitExceededException.class, answers, context);
        }

        @ExceptionHandler(RateLimitExceededException.class)
        Mono<ResponseEntity<ProblemDetail>> answer(RateLimitExceededException e, ServerWebExchange exchange) {
            return answerApiClients(e, exchange, () -> answers.answer(e, exchange));
        }
    }

    /** 503 for an open breaker. */
    @RestControllerAdvice
    public static final class CircuitOpen extends GuardReactiveAdvice {
        public CircuitOpen(GuardReactiveExceptionHandler answers, ApplicationContext context) {
            super(CallNotPermittedException.class, answers, context);
        }

        @ExceptionHandler(CallNotPermittedException.class)
        Mono<ResponseEntity<ProblemDetail>> answer(CallNotPermittedException e, ServerWebExchange exchange) {
            return answerApiClients(e, exchange, () -> answers.answer(e, exchange));
        }
    }

    /** 503 for a full bulkhead. */
    @RestControllerAdvice
    public static final class BulkheadFull extends GuardReactiveAdvice {
        public BulkheadFull(GuardReactiveExceptionHandler answers, ApplicationContext context) {
            super(BulkheadFullException.class, answers, context);
        }

        @ExceptionHandler(BulkheadFullException.class)
        Mono<ResponseEntity<ProblemDetail>> answer(BulkheadFullException e, ServerWebExchange exchange) {
            return answerApiClients(e, exchange, () -> answers.answer(e, exchange));
        }
    }

    /** 503 for a limit whose backend failed closed. */
    @RestControllerAdvice
    public static final class BackendUnavailable extends GuardReactiveAdvice {
        public BackendUnavailable(GuardReactiveExceptionHandler answers, ApplicationContext context) {
            super(RateLimiterBackendException.class, answers, context);
        }

        @ExceptionHandler(RateLimiterBackendException.class)
        Mono<ResponseEntity<ProblemDetail>> answer(RateLimiterBackendException e, ServerWebExchange exchange) {
            return answerApiClients(e, exchange, () -> answers.answer(e, exchange));
        }
    }

    /** 400 for a missing limit key. */
    @RestControllerAdvice
    public static final class MissingKey extends GuardReactiveAdvice {
        public MissingKey(GuardReactiveExceptionHandler answers, ApplicationContext context) {
            super(MissingRateLimitKeyException.class, answers, context);
        }

        @ExceptionHandler(MissingRateLimitKeyException.class)
        Mono<ResponseEntity<ProblemDetail>> answer(MissingRateLimitKeyException e, ServerWebExchange exchange) {
            return answerApiClients(e, exchange, () -> answers.answer(e, exchange));
        }
    }

    /** 400 for permits a limit can never grant. */
    @RestControllerAdvice
    public static final class InvalidPermits extends GuardReactiveAdvice {
        public InvalidPermits(GuardReactiveExceptionHandler answers, ApplicationContext context) {
            super(InvalidPermitsException.class, answers, context);
        }

        @ExceptionHandler(InvalidPermitsException.class)
        Mono<ResponseEntity<ProblemDetail>> answer(InvalidPermitsException e, ServerWebExchange exchange) {
            return answerApiClients(e, exchange, () -> answers.answer(e, exchange));
        }
    }
}
