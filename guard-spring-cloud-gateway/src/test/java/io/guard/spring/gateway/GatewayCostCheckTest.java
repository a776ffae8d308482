package io.guard.spring.gateway;

import io.guard.spring.autoconfigure.report.GuardPropertiesException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A gateway route whose Guard limit cannot be charged a cost after the response stops start-up, in one report
 * naming each route, the filter's argument and the value, in the words of the annotation's checks. In-process
 * backend: no Redis is needed to fail.
 */
class GatewayCostCheckTest {

    @Test
    void routesThatCannotBeChargedStopStartUpNamingRouteArgumentAndValue() {
        try (Backend backend = Backend.start()) {
            List<String> properties = new ArrayList<>(List.of("guard.rate-limit.backend=local",
                    "guard.rate-limit.instances.log.rate=100", "guard.rate-limit.instances.log.interval=60s",
                    "guard.rate-limit.instances.leased.algorithm=TOKEN_BUCKET",
                    "guard.rate-limit.instances.leased.rate=100", "guard.rate-limit.instances.leased.lease=10",
                    "guard.rate-limit.instances.bucket.algorithm=TOKEN_BUCKET",
                    "guard.rate-limit.instances.bucket.rate=100"));
            properties.addAll(Gateway.route(0, "sliding", "/a/**", backend, "guard.limit=log",
                    "guard.cost-header=X-Usage-Tokens"));
            properties.addAll(Gateway.route(1, "leasing", "/b/**", backend, "guard.limit=leased",
                    "guard.cost-header=X-Usage-Tokens"));
            properties.addAll(Gateway.route(2, "no-header", "/c/**", backend, "guard.limit=bucket",
                    "guard.cost-on-failure=none"));
            properties.addAll(Gateway.route(3, "strip-only", "/d/**", backend, "guard.limit=bucket",
                    "guard.strip-cost-header=true"));
            properties.addAll(Gateway.route(4, "odd-failure", "/e/**", backend, "guard.limit=bucket",
                    "guard.cost-header=X-Usage-Tokens", "guard.cost-on-failure=refund"));
            properties.addAll(Gateway.route(5, "fine", "/f/**", backend, "guard.limit=bucket",
                    "guard.cost-header=X-Usage-Tokens", "guard.cost-on-failure=none", "guard.strip-cost-header=true"));

            Throwable failure = catchThrowable(() -> Gateway.start(properties.toArray(String[]::new)).close());

            GuardPropertiesException error = GatewayRouteCheckTest.findCause(failure);
            String routes = Gateway.ROUTES;
            assertThat(error.getMessage()).contains("5 mistakes in the routes Guard limits")
                    .contains("route 'sliding' (" + routes + "[0].filters[0]): args.guard.cost-header 'X-Usage-Tokens' "
                            + "needs a TOKEN_BUCKET limit (whose balance can go into debt), but 'log' counts with "
                            + "SLIDING_LOG")
                    .contains("route 'leasing' (" + routes + "[1].filters[0]): args.guard.cost-header 'X-Usage-Tokens' "
                            + "cannot be charged on a leased limit (lease=10)")
                    .contains("route 'no-header' (" + routes + "[2].filters[0]): args.guard.cost-on-failure 'none' is "
                            + "set without a cost-header")
                    .contains("route 'strip-only' (" + routes + "[3].filters[0]): args.guard.strip-cost-header 'true' "
                            + "is set without a cost-header")
                    .contains("route 'odd-failure' (" + routes + "[4].filters[0]): args.guard.cost-on-failure 'refund' "
                            + "is neither estimate nor none")
                    .doesNotContain("'fine'");
            assertThat(error.action()).contains("Set guard.rate-limit.instances.log.algorithm=token-bucket.")
                    .contains("Set guard.rate-limit.instances.leased.lease=off.");
        }
    }
}
