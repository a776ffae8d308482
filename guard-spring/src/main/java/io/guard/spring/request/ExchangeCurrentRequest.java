package io.guard.spring.request;

import org.springframework.web.server.ServerWebExchange;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * A WebFlux exchange, found in the Reactor context of the subscription, with its principal's name resolved before
 * (the exchange only offers the principal as a {@code Mono}). Its remote address is already the forwarded client's
 * when Spring's {@code ForwardedHeaderTransformer} ran.
 *
 * @param principal the principal's name, or null when anonymous or not resolved because no expression reads it
 */
record ExchangeCurrentRequest(ServerWebExchange exchange, String principal) implements CurrentRequest {

    @Override
    public String clientIp() {
        InetSocketAddress address = exchange.getRequest().getRemoteAddress();
        if (address == null) {
            return null;
        }
        return address.getAddress() != null ? address.getAddress().getHostAddress() : address.getHostString();
    }

    @Override
    public Map<String, String> headers() {
        var headers = exchange.getRequest().getHeaders();
        return new RequestHeaders(headers::getFirst, headers::toSingleValueMap);
    }

    @Override
    public Object nativeRequest() {
        return exchange;
    }
}
