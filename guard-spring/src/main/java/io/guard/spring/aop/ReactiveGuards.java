package io.guard.spring.aop;

import io.guard.spring.ratelimit.LimitRequest;
import io.guard.spring.ratelimit.Limiting;
import io.guard.spring.method.ReturnKind;
import io.guard.spring.observation.BreakerObservation;
import io.guard.spring.observation.DecisionObservation;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import org.springframework.util.ClassUtils;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Guards methods returning {@code Mono} or {@code Flux} without blocking. The interface mentions no Reactor type, so
 * the aspects load {@link ReactorGuards} (and Reactor) only when Reactor is on the classpath.
 */
interface ReactiveGuards {

    /** The Reactor implementation when Reactor is present, else null. */
    static ReactiveGuards detect(ClassLoader classLoader) {
        return ClassUtils.isPresent("reactor.core.publisher.Mono", classLoader) ? new ReactorGuards() : null;
    }

    /**
     * A publisher that, on each subscription, evaluates the call's limit requests (with the web request of the
     * calling thread, else the WebFlux exchange of the subscription's context), asks every limit and subscribes to
     * the method's publisher only when all of them granted, else to the refusing limit's fallback (or fails with the
     * refusal). The sink is taken from the Reactor context, else {@code assemblySink}. Each decision is observed
     * when {@code observe} is not null: it starts an observation under the parent the subscription's context holds
     * (an {@code io.micrometer.observation.Observation}, or null), and may answer null. With {@code charging}
     * (null: no limit charges a cost), a {@code Mono}'s value or error is charged, as the {@link ChargedCall} made of
     * the subscription's admitted requests charges it, before the subscriber sees it.
     */
    Object limit(ReturnKind kind, Limiting limiting, DeferredRequests requests, RateLimitDecisionSink assemblySink,
                 RefusedCall refused, Proceed call, Function<Object, DecisionObservation> observe,
                 Function<List<LimitRequest>, ChargedCall> charging);

    /**
     * A publisher that, on each subscription, runs one call through the breaker; {@code observe} (null: not
     * observed) starts the call's observation under the subscription context's parent, and the method's publisher
     * sees that observation as its parent.
     */
    Object protect(ReturnKind kind, Supplier<BreakerCall> breakerCalls, Proceed call,
                   Function<Object, BreakerObservation> observe);
}
