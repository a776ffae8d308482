package io.guard.spring.aop;

import io.guard.spring.ratelimit.LimitRequest;
import io.guard.spring.request.CurrentRequest;

import java.util.List;
import java.util.function.Function;

/**
 * The limit requests of a {@code Mono} or {@code Flux} call, evaluated on each subscription: only then is a WebFlux
 * exchange reachable (in the Reactor context), and a retried publisher asks again anyway.
 *
 * @param evaluate        the call's requests given the web request it serves (null outside one)
 * @param callingThread   the servlet request bound to the calling thread (Spring MVC), else null
 * @param readsPrincipal  whether some limit may read {@code #principal}, which an exchange only gives asynchronously
 */
record DeferredRequests(Function<CurrentRequest, List<LimitRequest>> evaluate, CurrentRequest callingThread,
                        boolean readsPrincipal) {
}
