package io.guard.spring.actuate;

import io.guard.ratelimit.Failures;
import io.guard.ratelimit.Quota;
import io.guard.ratelimit.RateLimiterBackendException;
import io.guard.spring.ratelimit.RateLimitQuotas;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The HTTP answers of the {@code guard} endpoint's quota operations ({@code GET} and {@code DELETE}
 * {@code /actuator/guard/{name}/quota?key=...}): the quota, or a status whose body names the culprit. 404 for an
 * unknown limiter (or a path other than {@code quota}), 400 for a missing or blank key, 503 when the backend cannot
 * answer. Kept apart from {@link GuardEndpointWebExtension} so that the extension only maps paths.
 */
final class QuotaOperations {

    static final String PATH = "quota";
    static final int STATUS_SERVICE_UNAVAILABLE = 503;
    static final int STATUS_NOT_IMPLEMENTED = 501;

    private final @Nullable RateLimitQuotas quotas;

    /** @param quotas absent when the application has no rate limiting */
    QuotaOperations(@Nullable RateLimitQuotas quotas) {
        this.quotas = quotas;
    }

    WebEndpointResponse<Object> inspect(String name, String path, @Nullable String key) {
        return answer(name, path, key, () -> quotas.inspect(name, key));
    }

    /** Resets, then reads the quota again, so the answer shows what the next call will find. */
    WebEndpointResponse<Object> reset(String name, String path, @Nullable String key) {
        return answer(name, path, key, () -> {
            quotas.reset(name, key);
            return quotas.inspect(name, key);
        });
    }

    private WebEndpointResponse<Object> answer(String name, String path, @Nullable String key,
                                               Supplier<Quota> call) {
        if (!PATH.equals(path)) {
            return error("No operation '" + path + "' on the guard endpoint; use /actuator/guard/" + name
                    + "/quota?key=...", WebEndpointResponse.STATUS_NOT_FOUND);
        }
        if (quotas == null || !quotas.exists(name)) {
            String known = quotas == null ? "" : "; rate limiters: " + quotas.limits();
            return error("No rate limiter named '" + name + "'" + known, WebEndpointResponse.STATUS_NOT_FOUND);
        }
        if (key == null || key.isBlank()) {
            return error("Missing 'key': the resolved key whose quota to read or reset, e.g. ?key=user-42 (a limit"
                    + " without a key expression counts under the key 'global')",
                    WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        try {
            return new WebEndpointResponse<>(QuotaDescriptor.of(name, key, call.get()), WebEndpointResponse.STATUS_OK);
        }
        catch (RuntimeException ex) {
            Throwable cause = Failures.unwrap(ex);
            if (cause instanceof RateLimiterBackendException) {
                // The message names the limiter and the error class, never the key (see the backends).
                return error(cause.getMessage(), STATUS_SERVICE_UNAVAILABLE);
            }
            if (cause instanceof UnsupportedOperationException) {
                return error(cause.getMessage(), STATUS_NOT_IMPLEMENTED);
            }
            throw ex;
        }
    }

    private static WebEndpointResponse<Object> error(String message, int status) {
        return new WebEndpointResponse<>(Map.of("error", message), status);
    }
}
