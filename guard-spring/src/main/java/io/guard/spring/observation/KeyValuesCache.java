package io.guard.spring.observation;

import io.micrometer.common.KeyValues;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The low-cardinality key values of Guard's observations, made once per combination of their values: Micrometer asks
 * a convention for them when an observation starts and again when it stops, on every guarded call, and building them
 * (one {@code KeyValue} per tag, sorted) was the largest part of Guard's own cost of observing a call that never
 * reaches Redis (a decision from a lease, a breaker call). The values are bounded by design (names, outcomes,
 * flags), so the combinations are few; past {@value #MAX_ENTRIES} they are built each time instead of kept.
 *
 * @param <K> the combination: a record of the values the key values are built from
 */
final class KeyValuesCache<K> {

    static final int MAX_ENTRIES = 4_096;

    private final Map<K, KeyValues> known = new ConcurrentHashMap<>();

    KeyValues get(K combination, Function<K, KeyValues> build) {
        KeyValues values = known.get(combination);
        if (values == null) {
            values = build.apply(combination);
            if (known.size() < MAX_ENTRIES) {
                known.putIfAbsent(combination, values);
            }
        }
        return values;
    }
}
