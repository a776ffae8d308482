package io.guard.spring.request;

import java.util.Map;
import java.util.Set;

/**
 * The web request a guarded call serves, as far as a rate-limit key cares: who the client is. One implementation per
 * web stack, so that {@code #clientIp}, {@code #principal} and {@code #headers} read the same on Spring MVC and
 * WebFlux, and nothing here reads a forwarded header itself: the address is the one Spring's own forwarded-header
 * handling ({@code server.forward-headers-strategy}) left on the request.
 *
 * <p>Internal: public only because Guard's {@code aop} and {@code method} packages use it; not an API.
 */
public sealed interface CurrentRequest permits ServletCurrentRequest, ExchangeCurrentRequest {

    /** {@code #clientIp}: the client's address. */
    String CLIENT_IP = "clientIp";
    /** {@code #principal}: the authenticated principal's name. */
    String PRINCIPAL = "principal";
    /** {@code #headers}: the request's header fields, first value per name, names case-insensitive. */
    String HEADERS = "headers";
    /** Every variable a request brings to rate-limit expressions. */
    Set<String> VARIABLES = Set.of(CLIENT_IP, PRINCIPAL, HEADERS);

    /** The client's IP address; null when the server does not know it. */
    String clientIp();

    /** The authenticated principal's name; null for an anonymous request. */
    String principal();

    /** The header fields, read on demand. */
    Map<String, String> headers();

    /** The request object of the web stack ({@code HttpServletRequest}, {@code ServerWebExchange}). */
    Object nativeRequest();

    /** The value of one of {@link #VARIABLES}. */
    default Object variable(String name) {
        return switch (name) {
            case CLIENT_IP -> clientIp();
            case PRINCIPAL -> principal();
            case HEADERS -> headers();
            default -> null;
        };
    }
}
