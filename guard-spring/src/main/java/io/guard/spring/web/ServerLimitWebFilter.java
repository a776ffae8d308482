package io.guard.spring.web;

import io.guard.bulkhead.Bulkhead;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * WebFlux: the server-wide limit ({@code guard.server-limit}). Each exchange takes a permit of the adaptive bulkhead
 * {@code server} before the rest of the chain; beyond the limit the exchange fails at once with the bulkhead's refusal,
 * which {@link GuardWebExceptionHandler} answers with Guard's 503 problem detail and {@code Retry-After}. The
 * exchange's latency is the limit's sample when it completes; an error or a cancellation gives the permit back
 * without one.
 */
public class ServerLimitWebFilter implements WebFilter, Ordered {

    /** Ahead of Guard's other web filters (and of Spring Security's): a refusal should cost nothing. */
    static final int ORDER = RateLimitHeadersWebFilter.ORDER - 1;

    private final Bulkhead limit;
    private final ExcludedPaths excluded;

    /** @param excludedPaths path patterns within the application that the limit leaves alone */
    public ServerLimitWebFilter(Bulkhead limit, List<String> excludedPaths) {
        this.limit = limit;
        this.excluded = new ExcludedPaths(excludedPaths);
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (excluded.matches(exchange.getRequest().getPath().pathWithinApplication())) {
            return chain.filter(exchange);
        }
        return Mono.defer(() -> {
            Bulkhead.Permit permit = limit.tryAcquire();
            if (permit == null) {
                return Mono.error(limit.full());
            }
            return chain.filter(exchange)
                    .doOnSuccess(done -> permit.onSuccess())
                    .doOnError(error -> permit.release())
                    .doOnCancel(permit::release);
        });
    }
}
