package io.guard.spring.actuate;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * Settings of the live event stream at {@code <actuator base path>/guardevents/stream}.
 */
@ConfigurationProperties("management.endpoint.guardevents.stream")
public class GuardEventStreamProperties {

    /** Where the stream is served: next to the {@code guardevents} endpoint, on the application's port. */
    static final String PATH = "${management.endpoints.web.base-path:/actuator}/guardevents/stream";

    /** Whether to serve the live stream of Guard events (requires the guardevents endpoint to be exposed). */
    private boolean enabled = true;

    /** Events held for one slow client before its newest events are dropped. */
    private int queueSize = 256;

    /** Clients that may be connected at once; more are answered with 503. */
    private int maxSubscribers = 16;

    /** How long one connection stays open before the server ends it (clients such as EventSource reconnect). */
    private Duration timeout = Duration.ofMinutes(30);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getQueueSize() {
        return queueSize;
    }

    public void setQueueSize(int queueSize) {
        this.queueSize = queueSize;
    }

    public int getMaxSubscribers() {
        return maxSubscribers;
    }

    public void setMaxSubscribers(int maxSubscribers) {
        this.maxSubscribers = maxSubscribers;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }
}
