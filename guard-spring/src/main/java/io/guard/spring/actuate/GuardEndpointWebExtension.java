package io.guard.spring.actuate;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The HTTP form of {@link GuardEndpoint}'s writes: breaker state changes and limit overrides. Over HTTP an unknown
 * name must be a 404 (a plain endpoint's {@code null} from a write becomes 204), and a bad value a 400 whose body
 * names the field and value (Spring's default error body hides the reason). A write granted only by the legacy
 * {@code enabled=true} is a 403 (see {@link WriteAccess}); an override the store (Redis) could not take is a 503.
 */
@EndpointWebExtension(endpoint = GuardEndpoint.class)
public class GuardEndpointWebExtension {

    private final GuardEndpoint delegate;
    private final WriteAccess access;

    GuardEndpointWebExtension(GuardEndpoint delegate, WriteAccess access) {
        this.delegate = delegate;
        this.access = access;
    }

    /** See {@link GuardEndpoint#changeState(String, String, Long, String, String, Boolean)}. */
    @WriteOperation
    public WebEndpointResponse<Object> changeState(@Selector String name,
                                                   @org.springframework.lang.Nullable String state,
                                                   @org.springframework.lang.Nullable Long rate,
                                                   @org.springframework.lang.Nullable String interval,
                                                   @org.springframework.lang.Nullable String algorithm,
                                                   @org.springframework.lang.Nullable Boolean shadow) {
        boolean overriding = rate != null || interval != null || algorithm != null || shadow != null;
        String missing = overriding ? "No rate limit named '" + name + "'" : "No circuit breaker named '" + name + "'";
        return answer(name, missing, () -> delegate.changeState(name, state, rate, interval, algorithm, shadow));
    }

    /** Breaker state changes only, for Java callers. */
    public WebEndpointResponse<Object> changeState(String name, String state) {
        return changeState(name, state, null, null, null, null);
    }

    /** See {@link GuardEndpoint#removeOverride(String)}. */
    @DeleteOperation
    public WebEndpointResponse<Object> removeOverride(@Selector String name) {
        return answer(name, "No rate limit named '" + name + "'", () -> delegate.removeOverride(name));
    }

    private WebEndpointResponse<Object> answer(String name, String missing, Supplier<Object> write) {
        if (access.refused()) {
            return new WebEndpointResponse<>(Map.of("type", "urn:problem-type:guard:write-access-not-granted",
                    "title", "Forbidden", "status", 403, "detail", access.refusal(),
                    "instance", "/actuator/guard/" + name), 403);
        }
        try {
            Object result = write.get();
            if (result == null) {
                return new WebEndpointResponse<>(Map.of("error", missing), WebEndpointResponse.STATUS_NOT_FOUND);
            }
            return new WebEndpointResponse<>(result, WebEndpointResponse.STATUS_OK);
        }
        catch (InvalidEndpointRequestException ex) {
            return new WebEndpointResponse<>(Map.of("error", ex.getReason()), WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        catch (IllegalStateException ex) {
            return new WebEndpointResponse<>(Map.of("error", "The override could not be stored: " + ex.getMessage()),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }
}
