package io.guard.spring.actuate;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import java.util.Map;

/**
 * The HTTP form of {@link GuardEventsEndpoint}: a bad filter is a 400 whose body names the value (Spring's default
 * error body hides the reason), as on the live stream.
 */
@EndpointWebExtension(endpoint = GuardEventsEndpoint.class)
public class GuardEventsEndpointWebExtension {

    private final GuardEventsEndpoint delegate;

    GuardEventsEndpointWebExtension(GuardEventsEndpoint delegate) {
        this.delegate = delegate;
    }

    /** See {@link GuardEventsEndpoint#events(String, String, Integer)}. */
    // Spring's @Nullable, not JSpecify's: Boot 3.5 takes only this one as "optional parameter" (Boot 4 takes both).
    @SuppressWarnings("deprecation")
    @ReadOperation
    public WebEndpointResponse<Object> events(@org.springframework.lang.Nullable String name,
            @org.springframework.lang.Nullable String type, @org.springframework.lang.Nullable Integer limit) {
        try {
            return new WebEndpointResponse<>(delegate.events(name, type, limit), WebEndpointResponse.STATUS_OK);
        }
        catch (InvalidEndpointRequestException ex) {
            return new WebEndpointResponse<>(Map.of("error", ex.getReason()), WebEndpointResponse.STATUS_BAD_REQUEST);
        }
    }
}
