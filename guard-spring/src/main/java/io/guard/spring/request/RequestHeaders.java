package io.guard.spring.request;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code #headers}: a read-only map view of a request's header fields, so that {@code #headers['X-Api-Key']} works in
 * SpEL. A lookup asks the request for that one name (case-insensitive, first value); only iterating reads them all.
 *
 * <p>Internal: public only because Guard's {@code routes} package uses it; not an API.
 */
public final class RequestHeaders extends AbstractMap<String, String> {

    private final Function<String, String> first;
    private final Supplier<Map<String, String>> all;

    public RequestHeaders(Function<String, String> first, Supplier<Map<String, String>> all) {
        this.first = first;
        this.all = all;
    }

    @Override
    public String get(Object name) {
        return name instanceof String text ? first.apply(text) : null;
    }

    @Override
    public boolean containsKey(Object name) {
        return get(name) != null;
    }

    @Override
    public Set<Entry<String, String>> entrySet() {
        return Collections.unmodifiableMap(all.get()).entrySet();
    }
}
