package io.guard.spring.gateway;

import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Takes a route's cost header out of the upstream's answer when its filter says {@code guard.strip-cost-header: true},
 * so that clients do not see what the upstream reports for accounting; the value is kept for the charge
 * ({@link AdmittedCosts}). A response headers filter, as Spring Cloud Gateway applies them to every upstream answer
 * before copying its header fields to the client's.
 *
 * <p>Internal: public only for the auto-configuration.
 */
public final class CostHeaderStrip implements HttpHeadersFilter {

    @Override
    public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
        AdmittedCosts costs = exchange.getAttribute(GatewayCostFilter.ADMITTED);
        if (costs == null || !costs.stripsAny()) {
            return input; // most answers: nothing to copy
        }
        HttpHeaders kept = new HttpHeaders();
        boolean[] strippedAny = {false};
        input.forEach((name, values) -> {
            if (costs.strips(name)) {
                costs.strippedValue(name, values.isEmpty() ? null : values.get(0));
                strippedAny[0] = true;
            } else {
                kept.put(name, values);
            }
        });
        return strippedAny[0] ? kept : input;
    }

    @Override
    public boolean supports(Type type) {
        return type == Type.RESPONSE;
    }
}
