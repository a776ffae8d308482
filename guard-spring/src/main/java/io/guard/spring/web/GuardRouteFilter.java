package io.guard.spring.web;

import io.guard.spring.routes.RouteLimits;
import io.guard.spring.routes.RouteRequest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.http.server.RequestPath;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Spring MVC: applies the limits configured by URL pattern ({@code guard.rate-limit.routes}) before the request
 * reaches any handler, so they cover what no annotation can (static resources, third-party controllers), and
 * answers a refusal exactly like a refused {@code @RateLimit} handler: the same 429 problem detail, {@code
 * Retry-After} and RateLimit fields. Decided once per request: async and error dispatches pass through.
 */
public class GuardRouteFilter extends OncePerRequestFilter implements Ordered {

    /**
     * After Spring Boot's {@code ForwardedHeaderFilter} (highest precedence), so that {@code #clientIp} is the
     * forwarded client's, and inside {@link GuardServletAnswerFilter}; ahead of Spring Security (-100), so that a
     * flood is turned away before it costs an authentication.
     */
    static final int ORDER = ServerLimitFilter.ORDER + 1;

    private final RouteLimits routes;
    private final GuardServletExceptionHandler answers;

    public GuardRouteFilter(RouteLimits routes, GuardServletExceptionHandler answers) {
        this.routes = routes;
        this.answers = answers;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return routes.isEmpty();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var view = new RouteRequest(request.getMethod(),
                RequestPath.parse(request.getRequestURI(), request.getContextPath()).pathWithinApplication(),
                request.getRemoteAddr(), () -> new ServletServerHttpRequest(request).getHeaders());
        try {
            routes.acquire(view, ServletRateLimitDecisionSinks.decisions(request, response));
        } catch (RuntimeException refusal) {
            if (answers.answer(refusal, request, response)) {
                return;
            }
            throw refusal;
        }
        chain.doFilter(request, response);
    }
}
