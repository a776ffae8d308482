package io.guard.spring.actuate;

import io.guard.event.GuardEvent;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Which events a reader of {@code guardevents} or its stream wants: by name and by type, both optional; several
 * types may be given comma-separated ({@code type=STATE_TRANSITION,NOT_PERMITTED}).
 */
record EventFilter(@Nullable String name, Set<GuardEvent.Type> types) implements Predicate<GuardEvent> {

    static final EventFilter ALL = new EventFilter(null, EnumSet.allOf(GuardEvent.Type.class));

    /**
     * @throws IllegalArgumentException naming the value when a type is unknown
     */
    static EventFilter of(@Nullable String name, @Nullable String types) {
        String n = name == null || name.isBlank() ? null : name;
        if (types == null || types.isBlank()) {
            return new EventFilter(n, EnumSet.allOf(GuardEvent.Type.class));
        }
        Set<GuardEvent.Type> set = EnumSet.noneOf(GuardEvent.Type.class);
        for (String t : types.split(",")) {
            try {
                set.add(GuardEvent.Type.valueOf(t.trim().toUpperCase(Locale.ROOT)));
            }
            catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("Unknown event type '" + t.trim() + "'; expected one of "
                        + Arrays.stream(GuardEvent.Type.values()).map(Enum::name).collect(Collectors.joining(", ")));
            }
        }
        return new EventFilter(n, set);
    }

    @Override
    public boolean test(GuardEvent event) {
        return types.contains(event.type()) && (name == null || name.equals(event.name()));
    }
}
