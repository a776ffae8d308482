package io.guard.spring.key;

import java.lang.reflect.Method;

/**
 * What a {@link RateLimitKeyResolver} may base a key on: the guarded call, and the web request it serves, if any.
 * The request-side values are the same as the SpEL variables {@code #clientIp}, {@code #principal} and
 * {@code #headers}; they are null when the call is not made inside a web request (a scheduled job, a message
 * listener), so one resolver works for every caller of a method.
 */
public interface RateLimitKeyContext {

    /** The method being called. */
    Method method();

    /** The arguments of this call. */
    Object[] args();

    /** The object whose method is called. */
    Object target();

    /**
     * The client's IP address as Spring's forwarded-header handling sees it ({@code HttpServletRequest.getRemoteAddr()},
     * {@code ServerHttpRequest.getRemoteAddress()}): the proxy's address unless {@code server.forward-headers-strategy}
     * tells Spring to trust {@code X-Forwarded-For}. Null outside a web request.
     */
    String clientIp();

    /** The name of the authenticated principal; null for anonymous requests and outside a web request. */
    String principal();

    /** The first value of a request header (case-insensitive); null when absent or outside a web request. */
    String header(String name);

    /**
     * The request itself, when it has the given type: {@code HttpServletRequest} on Spring MVC,
     * {@code ServerWebExchange} on WebFlux; null otherwise.
     */
    <T> T nativeRequest(Class<T> type);
}
