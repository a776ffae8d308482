package io.guard.spring.web;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * WebFlux: puts the exchange into the Reactor context under {@code ServerWebExchange.class}, where the
 * {@code @RateLimit} aspect finds it for {@code #clientIp}, {@code #principal} and {@code #headers} of methods
 * returning {@code Mono} or {@code Flux} (an exchange, unlike a servlet request, is bound to no thread).
 *
 * <p>Last in the chain, so that the exchange is the one handlers see: after Spring Security has made its principal
 * available and any other filter has mutated it. The client address is already the forwarded one when
 * {@code server.forward-headers-strategy=framework} installed Spring's {@code ForwardedHeaderTransformer}, which runs
 * before every filter.
 */
public class ExchangeContextWebFilter implements WebFilter, Ordered {

    static final int ORDER = Ordered.LOWEST_PRECEDENCE;

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return chain.filter(exchange).contextWrite(context -> context.put(ServerWebExchange.class, exchange));
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
