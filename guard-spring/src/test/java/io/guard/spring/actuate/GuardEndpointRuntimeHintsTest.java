package io.guard.spring.actuate;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.ResolvableType;

import java.lang.reflect.RecordComponent;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every record the actuator writes as JSON, found by walking the answers' components (so a record nested into a
 * descriptor later is checked too), can be read by Jackson in a native image.
 */
// onMethod(..).invoke() is deprecated in Spring Framework 7 but is the form both Boot lines (6.2 and 7) have.
@SuppressWarnings("deprecation")
class GuardEndpointRuntimeHintsTest {

    /** What the endpoints and the event stream answer, including the operations declared as returning Object. */
    private static final List<Class<?>> ANSWERS = List.of(GuardEndpoint.GuardReport.class,
            GuardEndpoint.GuardEntry.class, RateLimiterDescriptor.class, QuotaDescriptor.class,
            GuardEventsEndpoint.GuardEvents.class, EventDescriptor.class);

    @Test
    void everyComponentOfEveryAnswerCanBeRead() {
        RuntimeHints hints = new RuntimeHints();
        new GuardEndpointRuntimeHints().registerHints(hints, getClass().getClassLoader());

        Set<Class<?>> records = new LinkedHashSet<>();
        ANSWERS.forEach(answer -> walk(ResolvableType.forClass(answer), records));
        assertThat(records).contains(CircuitBreakerDescriptor.Metrics.class, CircuitBreakerDescriptor.Config.class,
                RateLimiterDescriptor.Policy.class, BulkheadDescriptor.class);
        for (Class<?> type : records) {
            for (RecordComponent component : type.getRecordComponents()) {
                assertThat(RuntimeHintsPredicates.reflection().onMethod(component.getAccessor()).invoke())
                        .as(type.getName() + "." + component.getName() + "()").accepts(hints);
            }
        }
    }

    /** Guard's records reachable from {@code type}: itself, its components, and their generics. */
    private static void walk(ResolvableType type, Set<Class<?>> records) {
        Class<?> raw = type.resolve();
        if (raw == null) {
            return;
        }
        if (raw.isRecord() && raw.getName().startsWith("io.guard.") && records.add(raw)) {
            for (RecordComponent component : raw.getRecordComponents()) {
                walk(ResolvableType.forType(component.getGenericType()), records);
            }
        }
        for (ResolvableType generic : type.getGenerics()) {
            walk(generic, records);
        }
    }
}
