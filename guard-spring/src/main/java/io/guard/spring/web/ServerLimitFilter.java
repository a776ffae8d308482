package io.guard.spring.web;

import io.guard.bulkhead.Bulkhead;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.http.server.RequestPath;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.List;

/**
 * Spring MVC: the server-wide limit ({@code guard.server-limit}). Each request takes a permit of the adaptive bulkhead
 * {@code server} before anything else runs; beyond the limit it is answered at once with Guard's 503 problem detail
 * and {@code Retry-After}, so that an overloaded server sheds load instead of queueing it. The request's latency is
 * the limit's sample: an answered request (an asynchronous one when it completes), a drop when it timed out, nothing
 * when it failed with an exception.
 */
public class ServerLimitFilter extends OncePerRequestFilter implements Ordered {

    /** Just inside {@link GuardServletAnswerFilter}, ahead of every other filter: a refusal should cost nothing. */
    static final int ORDER = GuardServletAnswerFilter.ORDER + 1;

    private final Bulkhead limit;
    private final ExcludedPaths excluded;
    private final GuardServletExceptionHandler answers;

    /** @param excludedPaths path patterns within the application that the limit leaves alone */
    public ServerLimitFilter(Bulkhead limit, List<String> excludedPaths, GuardServletExceptionHandler answers) {
        this.limit = limit;
        this.excluded = new ExcludedPaths(excludedPaths);
        this.answers = answers;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return excluded.matches(RequestPath.parse(request.getRequestURI(), request.getContextPath())
                .pathWithinApplication());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Bulkhead.Permit permit = limit.tryAcquire();
        if (permit == null) {
            RuntimeException refusal = limit.full();
            if (answers.answer(refusal, request, response)) {
                return;
            }
            throw refusal;
        }
        boolean async = false;
        try {
            chain.doFilter(request, response);
            if (request.isAsyncStarted()) {
                request.getAsyncContext().addListener(new PermitListener(permit));
                async = true;
            } else {
                permit.onSuccess();
            }
        } finally {
            if (!async) {
                permit.release(); // after onSuccess a no-op; after an exception, no sample
            }
        }
    }

    /** An asynchronous request holds its permit until it completes. */
    private record PermitListener(Bulkhead.Permit permit) implements AsyncListener {

        @Override
        public void onComplete(AsyncEvent event) {
            permit.onSuccess();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            permit.onDropped();
        }

        @Override
        public void onError(AsyncEvent event) {
            permit.release();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this); // a new async cycle drops the listeners of the last one
        }
    }
}
