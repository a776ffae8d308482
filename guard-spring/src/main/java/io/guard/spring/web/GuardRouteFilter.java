package io.guard.spring.web;

import io.guard.spring.routes.RouteCosts;
import io.guard.spring.routes.RouteLimits;
import io.guard.spring.routes.RouteRequest;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.http.server.RequestPath;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Spring MVC: applies the limits configured by URL pattern ({@code guard.rate-limit.routes}) before the request
 * reaches any handler, so they cover what no annotation can (static resources, third-party controllers), and
 * answers a refusal exactly like a refused {@code @RateLimit} handler: the same 429 problem detail, {@code
 * Retry-After} and RateLimit fields. Decided once per request: async and error dispatches pass through. A route with
 * a {@code cost-header} is charged once the chain has answered (an asynchronous request: once it completes), from
 * the response's header, or as its {@code cost-on-failure} says when the chain threw, before the filter returns, so
 * that the client's next request finds the charge made.
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
        RouteCosts costs;
        try {
            costs = routes.acquire(view, ServletRateLimitDecisionSinks.decisions(request, response));
        } catch (RuntimeException refusal) {
            if (answers.answer(refusal, request, response)) {
                return;
            }
            throw refusal;
        }
        if (costs.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException failure) {
            costs.failed().join();
            throw failure;
        }
        if (request.isAsyncStarted()) {
            request.getAsyncContext().addListener(new ChargeOnCompletion(costs, response));
        } else {
            costs.responded(response::getHeader).join();
        }
    }

    /** Charges an asynchronous request once, when it completes (or, first, fails). */
    private static final class ChargeOnCompletion implements AsyncListener {

        private final RouteCosts costs;
        private final HttpServletResponse response;
        private final AtomicBoolean charged = new AtomicBoolean();

        ChargeOnCompletion(RouteCosts costs, HttpServletResponse response) {
            this.costs = costs;
            this.response = response;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            if (charged.compareAndSet(false, true)) {
                costs.responded(response::getHeader).join();
            }
        }

        @Override
        public void onError(AsyncEvent event) {
            if (charged.compareAndSet(false, true)) {
                costs.failed().join();
            }
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            // The application's timeout handling answers; onComplete or onError follows.
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this); // a new async cycle drops the listeners of the last one
        }
    }
}
