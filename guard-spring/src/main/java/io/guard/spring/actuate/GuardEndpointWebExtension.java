package io.guard.spring.actuate;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

import java.security.Principal;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The HTTP form of {@link GuardEndpoint}'s writes (breaker state changes and limit overrides) and the quota
 * operations (HTTP only, see {@link QuotaOperations}). Over HTTP an unknown
 * name must be a 404 (a plain endpoint's {@code null} from a write becomes 204), and a bad value a 400 whose body
 * names the field and value (Spring's default error body hides the reason). A write granted only by the legacy
 * {@code enabled=true} is a 403 (see {@link WriteAccess}); an override or fleet-wide command the store (Redis) could
 * not take is a 503. Where the application has Spring Security, its rules for the actuator apply before any of this.
 */
@EndpointWebExtension(endpoint = GuardEndpoint.class)
public class GuardEndpointWebExtension {

    private final GuardEndpoint delegate;
    private final WriteAccess access;
    private final QuotaOperations quotas;

    GuardEndpointWebExtension(GuardEndpoint delegate, WriteAccess access, QuotaOperations quotas) {
        this.delegate = delegate;
        this.access = access;
        this.quotas = quotas;
    }

    /**
     * {@code GET /actuator/guard/{name}/quota?key=...}: one key's quota, spending nothing
     * (see {@link QuotaOperations}).
     */
    // Spring's @Nullable, not JSpecify's: Boot 3.5 takes only this one as "optional parameter" (Boot 4 takes both).
    @SuppressWarnings("deprecation")
    @ReadOperation
    public WebEndpointResponse<Object> quota(@Selector String name, @Selector String path,
                                             @org.springframework.lang.Nullable String key) {
        return quotas.inspect(name, path, key);
    }

    /**
     * {@code DELETE /actuator/guard/{name}/quota?key=...}: gives the key its whole quota back on every instance and
     * answers the quota as it is afterwards. A write: off unless the endpoint's access is unrestricted.
     */
    @SuppressWarnings("deprecation")
    @DeleteOperation
    public WebEndpointResponse<Object> resetQuota(@Selector String name, @Selector String path,
                                                  @org.springframework.lang.Nullable String key) {
        if (access.refused()) {
            return forbidden(name + "/" + path);
        }
        return quotas.reset(name, path, key);
    }

    /**
     * See {@link GuardEndpoint#changeState(String, String, Long, String, String, Boolean, String)}; a fleet-wide
     * change is logged with the request's principal ({@code anonymous} without one).
     */
    @WriteOperation
    public WebEndpointResponse<Object> changeState(@Selector String name,
                                                   @org.springframework.lang.Nullable String state,
                                                   @org.springframework.lang.Nullable Long rate,
                                                   @org.springframework.lang.Nullable String interval,
                                                   @org.springframework.lang.Nullable String algorithm,
                                                   @org.springframework.lang.Nullable Boolean shadow,
                                                   @org.springframework.lang.Nullable String scope,
                                                   SecurityContext security) {
        boolean overriding = rate != null || interval != null || algorithm != null || shadow != null;
        String missing = overriding ? "No rate limit named '" + name + "'" : "No circuit breaker named '" + name + "'";
        String unstored = overriding ? "The override could not be stored: "
                : "The fleet-wide command could not be sent: ";
        Principal principal = security.getPrincipal();
        String by = principal == null ? "anonymous" : principal.getName();
        return answer(name, missing, unstored,
                () -> delegate.write(name, state, rate, interval, algorithm, shadow, scope, by));
    }

    /** The change without a scope (a breaker on this instance) and without a principal, for Java callers. */
    public WebEndpointResponse<Object> changeState(String name, @org.springframework.lang.Nullable String state,
                                                   @org.springframework.lang.Nullable Long rate,
                                                   @org.springframework.lang.Nullable String interval,
                                                   @org.springframework.lang.Nullable String algorithm,
                                                   @org.springframework.lang.Nullable Boolean shadow) {
        return changeState(name, state, rate, interval, algorithm, shadow, null, SecurityContext.NONE);
    }

    /** Breaker state changes on this instance only, for Java callers. */
    public WebEndpointResponse<Object> changeState(String name, String state) {
        return changeState(name, state, null, null, null, null, null, SecurityContext.NONE);
    }

    /** See {@link GuardEndpoint#removeOverride(String)}. */
    @DeleteOperation
    public WebEndpointResponse<Object> removeOverride(@Selector String name) {
        return answer(name, "No rate limit named '" + name + "'", "The override could not be stored: ",
                () -> delegate.removeOverride(name));
    }

    private WebEndpointResponse<Object> answer(String name, String missing, String unstored, Supplier<Object> write) {
        if (access.refused()) {
            return forbidden(name);
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
            return new WebEndpointResponse<>(Map.of("error", unstored + ex.getMessage()),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }

    private WebEndpointResponse<Object> forbidden(String path) {
        return new WebEndpointResponse<>(Map.of("type", "urn:problem-type:guard:write-access-not-granted",
                "title", "Forbidden", "status", 403, "detail", access.refusal(),
                "instance", "/actuator/guard/" + path), 403);
    }
}
