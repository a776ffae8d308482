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

    /** Equal strings, the same instance (the usual case: names held by the method's description) checked first. */
    static boolean same(String a, String b) {
        return a == b || (a != null && a.equals(b));
    }

    /** One more value in a combination's hash code (null hashes as 0; an enum by its identity hash). */
    static int hash(int hash, Object value) {
        return 31 * hash + (value == null ? 0 : value.hashCode());
    }

    static int hash(int hash, boolean value) {
        return 31 * hash + (value ? 1231 : 1237);
    }

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
