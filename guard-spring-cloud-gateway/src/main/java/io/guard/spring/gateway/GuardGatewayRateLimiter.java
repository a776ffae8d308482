package io.guard.spring.gateway;

import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.spring.method.LimitSpec;
import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.web.RateLimitHeaders;
import org.springframework.cloud.gateway.filter.ratelimit.AbstractRateLimiter;
import org.springframework.cloud.gateway.support.ConfigurationService;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spring Cloud Gateway's {@code RequestRateLimiter} filter decided by Guard: Redis server time, Guard's algorithms,
 * backend-failure policies, shadow mode, live overrides, the {@code guard} actuator endpoint and meters, with one
 * quota shared by every gateway instance on the same Redis. The route's {@code KeyResolver} still chooses the key.
 *
 * <p>A route names its limit in the filter's arguments ({@code guard.limit}, {@code guard.permits}); without them
 * the limit is named after the route id. The limit's rate, interval and algorithm come from
 * {@code guard.rate-limit.instances.<name>}, as for {@code @RateLimit}. Routes in {@code application.yml} are checked
 * at start-up.
 *
 * <p>Answers carry the IETF {@code RateLimit-Policy} and {@code RateLimit} fields, and {@code Retry-After} on a
 * refusal, whose status the filter sets ({@code 429} unless the route's {@code status-code} says otherwise); with
 * {@code guard.scg-headers: true} also the {@code X-RateLimit-*} fields of SCG's {@code RedisRateLimiter}
 * ({@link ScgHeaderFields}). When the backend fails and the limit fails closed, the request is answered {@code 503}
 * as elsewhere in Guard.
 */
public class GuardGatewayRateLimiter extends AbstractRateLimiter<GuardGatewayRateLimiter.Config> {

    /** The prefix of this limiter's filter arguments: {@code guard.limit}, {@code guard.permits}. */
    public static final String CONFIGURATION_PROPERTY_NAME = "guard";

    private final GatewayLimits limits;

    public GuardGatewayRateLimiter(GatewayLimits limits, ConfigurationService configurationService) {
        super(Config.class, CONFIGURATION_PROPERTY_NAME, configurationService);
        this.limits = limits;
    }

    @Override
    public Mono<Response> isAllowed(String routeId, String id) {
        // The parent of the decision's observation: the gateway's request observation, in the Reactor context.
        return Mono.deferContextual(context -> {
            GatewayLimits.Use use = use(routeId);
            LimitSpec spec = limits.spec(use, "route '" + routeId + "' (RequestRateLimiter)");
            Config config = getConfig().get(routeId);
            Headers headers = new Headers(config != null && config.isScgHeaders() ? use.permits() : 0);
            AdmittedCosts costs = spec.cost() == null ? null : context.getOrDefault(GatewayCostFilter.ADMITTED, null);
            return Mono.fromCompletionStage(limits.acquire(spec, id, headers,
                            context.getOrDefault(ObservationThreadLocalAccessor.KEY, null)))
                    .doOnNext(admitted -> {
                        if (costs != null) { // charged by GatewayCostFilter once the upstream has answered
                            costs.add(admitted, config.isStripCostHeader());
                        }
                    })
                    .then(Mono.fromSupplier(() -> new Response(true, headers.fields())))
                    .onErrorResume(RateLimitExceededException.class,
                            refused -> Mono.just(new Response(false, headers.refusal(refused))));
        });
    }

    /** The limit and permits a route asks for: its filter's arguments, else the limit named after the route. */
    GatewayLimits.Use use(String routeId) {
        Config config = getConfig().get(routeId);
        String limit = config == null || config.getLimit() == null || config.getLimit().isBlank() ? routeId
                : config.getLimit().trim();
        return config == null ? new GatewayLimits.Use(limit, 1)
                : new GatewayLimits.Use(limit, config.getPermits(), config.getCostHeader(), config.getCostOnFailure());
    }

    @Override
    public Config newConfig() {
        return new Config();
    }

    /** The decisions of one request, as the header fields Guard writes everywhere else (and SCG's, if asked). */
    private static final class Headers implements RateLimitDecisionSink {

        private final List<RateLimitHeaders.Entry> entries = new ArrayList<>(1);
        /** The permits each request takes, when the route asked for SCG's fields; else 0. */
        private final long scgPermits;

        Headers(long scgPermits) {
            this.scgPermits = scgPermits;
        }

        @Override
        public synchronized void record(RateLimitPolicy policy, Decision decision) {
            entries.add(new RateLimitHeaders.Entry(policy, decision));
        }

        synchronized Map<String, String> fields() {
            Map<String, String> fields = new LinkedHashMap<>();
            if (entries.isEmpty()) {
                return fields;
            }
            fields.put(RateLimitHeaders.POLICY, RateLimitHeaders.policyField(entries));
            String rateLimit = RateLimitHeaders.rateLimitField(entries);
            if (!rateLimit.isEmpty()) {
                fields.put(RateLimitHeaders.RATE_LIMIT, rateLimit);
            }
            if (scgPermits > 0) {
                RateLimitHeaders.Entry last = entries.get(entries.size() - 1);
                ScgHeaderFields.put(fields, last.policy(), last.decision(), scgPermits);
            }
            return fields;
        }

        Map<String, String> refusal(RateLimitExceededException refused) {
            Map<String, String> fields = fields();
            refused.retryAfterHint().ifPresent(wait -> fields.put(RateLimitHeaders.RETRY_AFTER,
                    Long.toString(RateLimitHeaders.retryAfterSeconds(wait))));
            return fields;
        }
    }

    /**
     * One route's arguments: {@code guard.limit}, {@code guard.permits}, {@code guard.scg-headers},
     * {@code guard.cost-header}, {@code guard.cost-on-failure} and {@code guard.strip-cost-header} in the
     * {@code RequestRateLimiter} filter's {@code args}.
     */
    public static class Config {

        /** The Guard limit the route uses (default: the route id); its settings are guard.rate-limit.instances.<limit>. */
        private String limit;

        /** Permits each request takes (default 1). */
        private long permits = 1;

        /** Whether answers also carry SCG RedisRateLimiter's X-RateLimit-* fields, for clients that read them. */
        private boolean scgHeaders;

        /** Response header holding what a request cost, charged once the upstream has answered (default none). */
        private String costHeader;

        /** What a request whose exchange ended with an error is charged: estimate (default) or none. */
        private String costOnFailure;

        /** Whether the cost header is taken out of the answer before it reaches the client. */
        private boolean stripCostHeader;

        public String getLimit() {
            return limit;
        }

        public Config setLimit(String limit) {
            this.limit = limit;
            return this;
        }

        public long getPermits() {
            return permits;
        }

        public Config setPermits(long permits) {
            this.permits = permits;
            return this;
        }

        public String getCostHeader() {
            return costHeader;
        }

        public Config setCostHeader(String costHeader) {
            this.costHeader = costHeader;
            return this;
        }

        public String getCostOnFailure() {
            return costOnFailure;
        }

        public Config setCostOnFailure(String costOnFailure) {
            this.costOnFailure = costOnFailure;
            return this;
        }

        public boolean isStripCostHeader() {
            return stripCostHeader;
        }

        public Config setStripCostHeader(boolean stripCostHeader) {
            this.stripCostHeader = stripCostHeader;
            return this;
        }

        public boolean isScgHeaders() {
            return scgHeaders;
        }

        public Config setScgHeaders(boolean scgHeaders) {
            this.scgHeaders = scgHeaders;
            return this;
        }
    }
}
