package io.guard.spring.web;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import org.springframework.http.HttpHeaders;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The rate-limit decisions of one HTTP request, the latest per limit name, in the order the limits were first met; a
 * decision that counted nothing (a {@code FAIL_OPEN} answer) does not replace one that counted, which is still what
 * is known of the quota. Thread-safe: asynchronous limits record from other threads.
 */
class RateLimitDecisions implements RateLimitDecisionSink {

    /** The request or exchange attribute that holds a request's decisions. */
    static final String ATTRIBUTE = RateLimitDecisions.class.getName();

    private final Map<String, RateLimitHeaders.Entry> entries = new LinkedHashMap<>();

    @Override
    public void record(RateLimitPolicy policy, Decision decision) {
        synchronized (entries) {
            RateLimitHeaders.Entry known = entries.get(policy.name());
            if (decision.counted() || known == null || !known.decision().counted()) {
                entries.put(policy.name(), new RateLimitHeaders.Entry(policy, decision));
            }
        }
    }

    List<RateLimitHeaders.Entry> entries() {
        synchronized (entries) {
            return new ArrayList<>(entries.values());
        }
    }

    /** Sets (replaces) both RateLimit fields; leaves the headers alone when no limit was met. */
    void writeTo(HttpHeaders headers) {
        writeTo(headers::set);
    }

    /**
     * Both RateLimit fields to {@code header} (name, value), built from the entries without copying them; the
     * {@code RateLimit} field only when some decision counted (once set it stays: a counted entry is never replaced
     * by one that counted nothing).
     */
    void writeTo(BiConsumer<String, String> header) {
        String policy;
        String rateLimit;
        synchronized (entries) {
            if (entries.isEmpty()) {
                return;
            }
            policy = RateLimitHeaders.policyField(entries.values());
            rateLimit = RateLimitHeaders.rateLimitField(entries.values());
        }
        header.accept(RateLimitHeaders.POLICY, policy);
        if (!rateLimit.isEmpty()) {
            header.accept(RateLimitHeaders.RATE_LIMIT, rateLimit);
        }
    }
}
