package io.guard.spring.routes;

import io.guard.spring.ratelimit.CostCharges;
import io.guard.spring.ratelimit.LimitRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * What the routes that admitted one request charge once it is answered ({@code cost-header}): the cost the response's
 * header says, less the permits taken at admission; or, when handling the request failed with an exception, what
 * {@code cost-on-failure} says. The filters that admitted the request call it after the chain.
 *
 * <p>Internal: public only for Guard's {@code web} package.
 */
public final class RouteCosts {

    /** Nothing to charge: no route that matched has a cost. */
    static final RouteCosts NONE = new RouteCosts(null, List.of());

    private final CostCharges charges;
    private final List<LimitRequest> admitted;

    private RouteCosts(CostCharges charges, List<LimitRequest> admitted) {
        this.charges = charges;
        this.admitted = admitted;
    }

    /** The requests of {@code decided} whose route has a cost, or {@link #NONE}. */
    static RouteCosts of(CostCharges charges, List<LimitRequest> decided) {
        List<LimitRequest> costly = new ArrayList<>(0);
        for (LimitRequest request : decided) {
            if (request.spec().cost() != null) {
                costly.add(request);
            }
        }
        return costly.isEmpty() ? NONE : new RouteCosts(charges, List.copyOf(costly));
    }

    /** Whether nothing is charged after the response. */
    public boolean isEmpty() {
        return admitted.isEmpty();
    }

    /**
     * Charges a request that was answered; {@code headers} reads a response header (null when absent). Never
     * completes exceptionally: a charge the backend could not make is logged and counted.
     */
    public CompletableFuture<Void> responded(Function<String, String> headers) {
        return isEmpty() ? CompletableFuture.completedFuture(null) : charges.responded(admitted, headers);
    }

    /** Charges a request whose handling failed with an exception, as each route's {@code cost-on-failure} says. */
    public CompletableFuture<Void> failed() {
        return isEmpty() ? CompletableFuture.completedFuture(null) : charges.threw(admitted, () -> null);
    }
}
