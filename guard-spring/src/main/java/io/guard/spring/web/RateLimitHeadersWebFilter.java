package io.guard.spring.web;

import io.guard.spring.ratelimit.RateLimitDecisionSink;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * WebFlux: gives each exchange a decision holder, in the exchange's attributes and in the Reactor context (where the
 * aspect finds it for Mono and Flux handlers), and writes the RateLimit fields just before the response commits.
 *
 * <p>Handlers that return plain values run outside any Reactor context the aspect can see, so their successful
 * answers carry no RateLimit fields; their 429 answers do.
 */
public class RateLimitHeadersWebFilter implements WebFilter, Ordered {

    /** Early, so that every later filter and handler records into the same holder. */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        RateLimitDecisions decisions = decisions(exchange);
        exchange.getResponse().beforeCommit(() -> {
            decisions.writeTo(exchange.getResponse().getHeaders());
            return Mono.empty();
        });
        return chain.filter(exchange).contextWrite(context -> context.put(RateLimitDecisionSink.class, decisions));
    }

    /** The exchange's decisions, created on first use. */
    static RateLimitDecisions decisions(ServerWebExchange exchange) {
        return (RateLimitDecisions) exchange.getAttributes()
                .computeIfAbsent(RateLimitDecisions.ATTRIBUTE, name -> new RateLimitDecisions());
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
