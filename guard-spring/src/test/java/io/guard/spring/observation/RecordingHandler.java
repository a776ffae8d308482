package io.guard.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every stopped observation's context, in the order they stopped. */
final class RecordingHandler implements ObservationHandler<Observation.Context> {

    /** A handler and the application's {@code ObservationRegistry} that reports to it. */
    @Configuration(proxyBeanMethods = false)
    static class Registered {
        @Bean
        RecordingHandler recordingHandler() {
            return new RecordingHandler();
        }

        @Bean
        ObservationRegistry observationRegistry(RecordingHandler handler) {
            return registryReportingTo(handler);
        }
    }

    static ObservationRegistry registryReportingTo(RecordingHandler handler) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(handler);
        return registry;
    }

    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
    private final List<Observation.Context> started = new CopyOnWriteArrayList<>();

    @Override
    public void onStart(Observation.Context context) {
        started.add(context);
    }

    @Override
    public void onStop(Observation.Context context) {
        stopped.add(context);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return true;
    }

    List<Observation.Context> stopped() {
        return stopped;
    }

    List<Observation.Context> started() {
        return started;
    }

    List<Observation.Context> named(String name) {
        return stopped.stream().filter(context -> name.equals(context.getName())).toList();
    }

    static String low(Observation.Context context, String key) {
        var value = context.getLowCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    static String high(Observation.Context context, String key) {
        var value = context.getHighCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }
}
