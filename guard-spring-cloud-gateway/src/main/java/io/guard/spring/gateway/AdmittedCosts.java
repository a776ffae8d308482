package io.guard.spring.gateway;

import io.guard.spring.ratelimit.LimitRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * One exchange's requests admitted by limits with a {@code guard.cost-header}, handed from the rate limiter (which
 * sees no exchange, only the Reactor context) to {@link GatewayCostFilter}, which charges them once the upstream
 * has answered; and the cost headers to strip from the answer, with the values {@link CostHeaderStrip} took out.
 */
final class AdmittedCosts {

    private final List<LimitRequest> admitted = new ArrayList<>(1);
    private final Set<String> stripped = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, String> strippedValues = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    /** Requests that charge a cost after the response; {@code strip} whether their header stays upstream. */
    synchronized void add(List<LimitRequest> requests, boolean strip) {
        for (LimitRequest request : requests) {
            if (request.spec().cost() != null) {
                admitted.add(request);
                if (strip) {
                    stripped.add(request.spec().cost().header());
                }
            }
        }
    }

    synchronized List<LimitRequest> admitted() {
        return List.copyOf(admitted);
    }

    /** Whether some admitted request's cost header is to be taken out of the answer. */
    synchronized boolean stripsAny() {
        return !stripped.isEmpty();
    }

    synchronized boolean strips(String header) {
        return stripped.contains(header);
    }

    /** Keeps the value of a header taken out of the answer, for the charge. */
    synchronized void strippedValue(String header, String value) {
        strippedValues.putIfAbsent(header, value);
    }

    /** A header of the answer as the upstream sent it: the value stripped, else {@code response}'s. */
    Function<String, String> headers(Function<String, String> response) {
        return name -> {
            synchronized (this) {
                String value = strippedValues.get(name);
                if (value != null) {
                    return value;
                }
            }
            return response.apply(name);
        };
    }
}
