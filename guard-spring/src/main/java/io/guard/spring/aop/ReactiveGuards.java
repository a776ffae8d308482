package io.guard.spring.aop;

import io.guard.spring.method.ReturnKind;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import org.springframework.util.ClassUtils;

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
     * refusal). The sink is taken from the Reactor context, else {@code assemblySink}.
     */
    Object limit(ReturnKind kind, Limiting limiting, DeferredRequests requests, RateLimitDecisionSink assemblySink,
                 RefusedCall refused, Proceed call);

    /** A publisher that, on each subscription, runs one call through the breaker. */
    Object protect(ReturnKind kind, Supplier<BreakerCall> breakerCalls, Proceed call);
}
