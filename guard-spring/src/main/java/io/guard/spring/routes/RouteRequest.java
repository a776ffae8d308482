package io.guard.spring.routes;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;

import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code #request} in a route's key expression: a read-only view of the HTTP request that Spring MVC and WebFlux
 * build alike, so that one expression works on both. The header fields are read only when an expression asks.
 */
public final class RouteRequest {

    private final String method;
    private final PathContainer path;
    private final String remoteAddress;
    private final Supplier<HttpHeaders> headers;
    private HttpHeaders headersRead;

    /**
     * @param method        the HTTP method, e.g. {@code GET}
     * @param path          the path within the application (without the context path)
     * @param remoteAddress the client's address as the server sees it (after forwarded-header handling)
     * @param headers       the request's header fields, asked for at most once
     */
    public RouteRequest(String method, PathContainer path, String remoteAddress, Supplier<HttpHeaders> headers) {
        this.method = method;
        this.path = path;
        this.remoteAddress = remoteAddress;
        this.headers = headers;
    }

    /** The HTTP method, e.g. {@code GET}. */
    public String getMethod() {
        return method;
    }

    /** The path within the application, e.g. {@code /api/orders/42}. */
    public String getPath() {
        return path.value();
    }

    PathContainer pathContainer() {
        return path;
    }

    /** The client's address: {@code #clientIp}. */
    public String getRemoteAddress() {
        return remoteAddress;
    }

    /** The first value of the header field {@code name} (any case), or null. */
    public String header(String name) {
        return headers().getFirst(name);
    }

    /** Each header field's first value, by name: what iterating {@code #headers} shows. */
    Map<String, String> firstHeaderValues() {
        return headers().toSingleValueMap();
    }

    private HttpHeaders headers() {
        if (headersRead == null) {
            headersRead = headers.get();
        }
        return headersRead;
    }
}
