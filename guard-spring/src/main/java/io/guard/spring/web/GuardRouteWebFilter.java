package io.guard.spring.web;

import io.guard.spring.aop.MethodScopes;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.guard.spring.routes.RouteCosts;
import io.guard.spring.routes.RouteLimits;
import io.guard.spring.routes.RouteRequest;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * WebFlux: applies the limits configured by URL pattern ({@code guard.rate-limit.routes}) before the exchange
 * reaches any handler, without blocking (the registry's asynchronous API); the chain goes on where it was when the
 * decision was known at once, else on {@code Schedulers.boundedElastic()}, never on the Redis client's I/O thread. A refusal fails the exchange, and
 * {@link GuardWebExceptionHandler} answers it exactly like a refused {@code @RateLimit} handler; decisions go into
 * the exchange's RateLimit fields through {@link RateLimitHeadersWebFilter}'s holder. A route with a
 * {@code cost-header} is charged once the chain has answered, from the response's header (or as its
 * {@code cost-on-failure} says when the chain ended with an error), before the exchange completes, so that the
 * client's next request finds the charge made.
 */
public class GuardRouteWebFilter implements WebFilter, Ordered {

    /** Just inside {@link RateLimitHeadersWebFilter}, whose holder the decisions go to. */
    static final int ORDER = RateLimitHeadersWebFilter.ORDER + 1;

    private final RouteLimits routes;

    public GuardRouteWebFilter(RouteLimits routes) {
        this.routes = routes;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (routes.isEmpty()) {
            return chain.filter(exchange);
        }
        ServerHttpRequest request = exchange.getRequest();
        var view = new RouteRequest(request.getMethod().name(), request.getPath().pathWithinApplication(),
                clientIp(request.getRemoteAddress()), request::getHeaders);
        // The parent of the decision's observation: the server's request observation, in the Reactor context.
        return Mono.deferContextual(context -> decided(routes.acquireAsync(view,
                        RateLimitHeadersWebFilter.decisions(exchange),
                        context.getOrDefault(ObservationThreadLocalAccessor.KEY, null)).toCompletableFuture()))
                .flatMap(costs -> MethodScopes.closedAfterSubscribing(Mono.defer(() -> costs.isEmpty()
                        ? chain.filter(exchange) : charged(costs, exchange, chain))));
    }

    /** The chain, then the charge of what the answer cost; the chain's own outcome stands. */
    private static Mono<Void> charged(RouteCosts costs, ServerWebExchange exchange, WebFilterChain chain) {
        return chain.filter(exchange)
                .then(Mono.defer(() -> decided(costs.responded(exchange.getResponse().getHeaders()::getFirst))))
                .onErrorResume(failure -> decided(costs.failed()).then(Mono.error(failure)));
    }

    /**
     * A decision that is not known yet arrives on the limiter's thread (the Redis client's I/O thread), where the
     * rest of the chain must not run: a filter or handler that blocks there would stall every Redis answer.
     */
    private static <T> Mono<T> decided(CompletableFuture<T> decision) {
        return decision.isDone() ? Mono.fromFuture(decision)
                : Mono.fromFuture(decision).publishOn(Schedulers.boundedElastic());
    }

    /** The address without the port; the host name only when the address was never resolved. */
    private static String clientIp(InetSocketAddress address) {
        if (address == null) {
            return null;
        }
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }
}
