package io.guard.sample.chaos;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The chaos settings in force, shared by the HTTP controls and the simulated downstream. Starts from
 * {@code sample.inventory.latency} and {@code sample.inventory.failure-rate}; each change replaces both values at
 * once, so a call never sees half of an update.
 */
@Component
public class Chaos {

    private final AtomicReference<ChaosSettings> current;

    public Chaos(@Value("${sample.inventory.failure-rate:0.0}") double failureRate,
                 @Value("${sample.inventory.latency:120ms}") Duration latency) {
        this.current = new AtomicReference<>(new ChaosSettings(failureRate, latency.toMillis()));
    }

    public ChaosSettings current() {
        return current.get();
    }

    /** Replaces the settings; returns the new ones. The caller has validated them. */
    public ChaosSettings replace(ChaosSettings settings) {
        current.set(settings);
        return settings;
    }
}
