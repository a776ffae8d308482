package io.guard.spring.gateway;

import io.guard.spring.ratelimit.CostCharges;
import io.guard.spring.ratelimit.LimitRequest;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * Charges what a gateway request cost once the upstream has answered, for routes whose Guard limit has a
 * {@code guard.cost-header}: the header's value less the permits taken at admission, or what
 * {@code guard.cost-on-failure} says when the exchange ended with an error. Spring Cloud Gateway's
 * {@code RateLimiter} is asked only before the request, so this global filter wraps the route's filters: it hands the
 * rate limiter a holder through the Reactor context, and charges what the limiter admitted into it once the chain
 * inside has answered.
 *
 * <p>Order 0: outside the route's filters (ordered from 1 in {@code application.yml}; 0 for Java routes, which
 * come after the global filters of the same order), and inside {@code NettyWriteResponseFilter} (-1), so that the
 * upstream's headers are known and the charge lands before the answer's body is written: the client's next request
 * finds it made, as with {@code @RateLimit(cost = ...)}. A charge never fails the exchange.
 *
 * <p>Internal: public only for the auto-configuration.
 */
public final class GatewayCostFilter implements GlobalFilter, Ordered {

    /** Where the holder is, in the Reactor context and the exchange's attributes. */
    static final String ADMITTED = GatewayCostFilter.class.getName() + ".admitted";

    private final CostCharges charges;

    public GatewayCostFilter(CostCharges charges) {
        this.charges = charges;
    }

    @Override
    public int getOrder() {
        return 0;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        AdmittedCosts costs = new AdmittedCosts();
        exchange.getAttributes().put(ADMITTED, costs);
        return chain.filter(exchange)
                .then(Mono.defer(() -> charge(costs, false, exchange)))
                .onErrorResume(failure -> charge(costs, true, exchange).then(Mono.error(failure)))
                .contextWrite(context -> context.put(ADMITTED, costs));
    }

    private Mono<Void> charge(AdmittedCosts costs, boolean failed, ServerWebExchange exchange) {
        List<LimitRequest> admitted = costs.admitted();
        if (admitted.isEmpty()) {
            return Mono.empty();
        }
        return Mono.fromFuture(failed ? charges.threw(admitted, () -> null)
                : charges.responded(admitted, costs.headers(exchange.getResponse().getHeaders()::getFirst)));
    }
}
