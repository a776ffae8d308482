package io.guard.spring.autoconfigure;

import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.spring.ratelimit.LimitSettings;

import java.time.Duration;

/** One limit's settings; unset (null) values come from the next source (annotation, then defaults). */
public class LimitProperties extends TierProperties {

    /** GLOBAL (one quota for every instance, the default) or PER_INSTANCE. */
    private Scope scope;

    /** Whose clock counts: SERVER (Redis TIME, the default) or CLIENT. */
    private TimeSource timeSource;

    /** What happens when Redis cannot decide: FAIL_OPEN (the default), FAIL_CLOSED (503) or LOCAL. */
    private BackendFailurePolicy onBackendFailure;

    /** How long a call may wait for permits; 0 refuses at once (the default). */
    private Duration timeout;

    /** The detail of the 429 answer. */
    private String message;

    /**
     * Whether this limit's decisions go into the RateLimit and RateLimit-Policy header fields of the HTTP answer
     * (default: only on web handlers). Unset, a limit on a @Controller is published and one on a service bean is not.
     */
    private Boolean httpHeaders;

    /**
     * Whether the limit runs in shadow mode: it decides and records (metrics, events, a log line per would-be
     * refusal) but never refuses, never waits and sets no RateLimit header fields (default false).
     */
    private Boolean shadow;

    /**
     * Replicas that must have a spend before an admission is granted, on Sentinel or Cluster deployments: Redis WAIT
     * after the decision (default 0). Fewer within wait-for-replicas-timeout: the admission is answered by
     * on-backend-failure.
     */
    private Integer waitForReplicas;

    /** The longest the WAIT for replicas blocks a decision (default 100ms); keep it below guard.rate-limit.redis.timeout. */
    private Duration waitForReplicasTimeout;

    /**
     * Leased decisions (TOKEN_BUCKET and FIXED_WINDOW only): off (every decision asks Redis), a number of permits each
     * instance takes from the shared quota at once, or auto (sized from the key's recent rate) (default off).
     */
    private String lease;

    @Override
    public LimitSettings toSettings() {
        return new LimitSettings(getRate(), getInterval(), getAlgorithm(), getBurst(), scope, timeSource,
                onBackendFailure, timeout, message, httpHeaders, shadow, waitForReplicas, waitForReplicasTimeout, lease);
    }

    public String getLease() {
        return lease;
    }

    public void setLease(String lease) {
        this.lease = lease;
    }

    public Integer getWaitForReplicas() {
        return waitForReplicas;
    }

    public void setWaitForReplicas(Integer waitForReplicas) {
        this.waitForReplicas = waitForReplicas;
    }

    public Duration getWaitForReplicasTimeout() {
        return waitForReplicasTimeout;
    }

    public void setWaitForReplicasTimeout(Duration waitForReplicasTimeout) {
        this.waitForReplicasTimeout = waitForReplicasTimeout;
    }

    public Boolean getShadow() {
        return shadow;
    }

    public void setShadow(Boolean shadow) {
        this.shadow = shadow;
    }

    public Scope getScope() {
        return scope;
    }

    public void setScope(Scope scope) {
        this.scope = scope;
    }

    public TimeSource getTimeSource() {
        return timeSource;
    }

    public void setTimeSource(TimeSource timeSource) {
        this.timeSource = timeSource;
    }

    public BackendFailurePolicy getOnBackendFailure() {
        return onBackendFailure;
    }

    public void setOnBackendFailure(BackendFailurePolicy onBackendFailure) {
        this.onBackendFailure = onBackendFailure;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public Boolean getHttpHeaders() {
        return httpHeaders;
    }

    public void setHttpHeaders(Boolean httpHeaders) {
        this.httpHeaders = httpHeaders;
    }
}
