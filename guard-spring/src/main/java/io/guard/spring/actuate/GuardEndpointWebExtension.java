package io.guard.spring.actuate;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import java.util.Map;

/**
 * The HTTP form of {@link GuardEndpoint}'s state change. Over HTTP an unknown breaker must be a 404 (a plain
 * endpoint's {@code null} from a write becomes 204), and a bad state a 400 whose body names the value (Spring's
 * default error body hides the reason).
 */
@EndpointWebExtension(endpoint = GuardEndpoint.class)
public class GuardEndpointWebExtension {

    private final GuardEndpoint delegate;

    GuardEndpointWebExtension(GuardEndpoint delegate) {
        this.delegate = delegate;
    }

    /** See {@link GuardEndpoint#changeState(String, String)}. */
    @WriteOperation
    public WebEndpointResponse<Object> changeState(@Selector String name, String state) {
        try {
            CircuitBreakerDescriptor breaker = delegate.changeState(name, state);
            if (breaker == null) {
                return new WebEndpointResponse<>(
                        Map.of("error", "No circuit breaker named '" + name + "'"), WebEndpointResponse.STATUS_NOT_FOUND);
            }
            return new WebEndpointResponse<>(breaker, WebEndpointResponse.STATUS_OK);
        }
        catch (InvalidEndpointRequestException ex) {
            return new WebEndpointResponse<>(Map.of("error", ex.getReason()), WebEndpointResponse.STATUS_BAD_REQUEST);
        }
    }
}
