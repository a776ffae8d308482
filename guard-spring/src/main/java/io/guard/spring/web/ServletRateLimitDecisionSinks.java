package io.guard.spring.web;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitDecisionSinks;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Spring MVC: the decisions of the current request live in a request attribute, and each one sets the RateLimit
 * fields on the response at once, before the handler writes anything, so successful answers carry them too.
 */
public final class ServletRateLimitDecisionSinks implements RateLimitDecisionSinks {

    @Override
    public RateLimitDecisionSink current() {
        if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
            return RateLimitDecisionSink.NONE;
        }
        return decisions(attributes.getRequest(), attributes.getResponse());
    }

    /** The request's decisions, created on first use. */
    static RateLimitDecisions decisions(HttpServletRequest request, HttpServletResponse response) {
        synchronized (request) {
            Object existing = request.getAttribute(RateLimitDecisions.ATTRIBUTE);
            if (existing instanceof RateLimitDecisions decisions) {
                return decisions;
            }
            var created = new ResponseWritingDecisions(response);
            request.setAttribute(RateLimitDecisions.ATTRIBUTE, created);
            return created;
        }
    }

    /** Decisions that also set the response's header fields while it is not committed. */
    private static final class ResponseWritingDecisions extends RateLimitDecisions {

        private final HttpServletResponse response;

        ResponseWritingDecisions(HttpServletResponse response) {
            this.response = response;
        }

        @Override
        public void record(RateLimitPolicy policy, Decision decision) {
            super.record(policy, decision);
            if (response != null && !response.isCommitted()) {
                writeTo(response::setHeader);
            }
        }
    }
}
