package io.guard.spring.request;

import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * Finds the WebFlux exchange a subscription serves: Guard's {@code ExchangeContextWebFilter} puts it into the Reactor
 * context under {@code ServerWebExchange.class} (the key Spring Security uses for the same purpose), as the last
 * filter, so that it is the exchange the handler sees, after other filters wrapped or mutated it. Kept apart from
 * {@code ReactorGuards} so that WebFlux's types load only when WebFlux is there.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class ExchangeRequests {

    private ExchangeRequests() {
    }

    /**
     * The exchange of {@code context} as a request, its principal's name resolved first when {@code withPrincipal};
     * null when the context carries no exchange.
     */
    public static Mono<CurrentRequest> find(ContextView context, boolean withPrincipal) {
        ServerWebExchange exchange = context.getOrDefault(ServerWebExchange.class, null);
        if (exchange == null) {
            return null;
        }
        if (!withPrincipal) {
            return Mono.just(new ExchangeCurrentRequest(exchange, null));
        }
        return exchange.getPrincipal()
                .mapNotNull(Principals::name)
                .<CurrentRequest>map(name -> new ExchangeCurrentRequest(exchange, name))
                .defaultIfEmpty(new ExchangeCurrentRequest(exchange, null));
    }
}
