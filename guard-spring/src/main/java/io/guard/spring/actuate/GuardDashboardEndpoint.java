package io.guard.spring.actuate;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.util.MimeType;

import java.util.Map;

/**
 * The {@code guarddashboard} actuator endpoint: a read-only page that draws every breaker and limiter live from
 * the {@code guard} endpoint and the {@code guardevents/stream} event stream.
 *
 * <p>It is an endpoint, not a static resource of the application, so it lives where the other endpoints live (the
 * same port, base path and security rules, {@code management.server.port} included) and exists only once exposed.
 * The page is plain HTML, CSS and JavaScript shipped in this jar: nothing to build, nothing fetched from the
 * network. Only the files named here can be read, so a selector cannot walk the class path.
 */
@WebEndpoint(id = "guarddashboard", defaultAccess = Access.READ_ONLY)
public class GuardDashboardEndpoint {

    private static final String FOLDER = "io/guard/spring/actuate/dashboard/";
    private static final String HTML = "text/html;charset=UTF-8";
    private static final String CSS = "text/css;charset=UTF-8";
    private static final String JAVASCRIPT = "text/javascript;charset=UTF-8";

    private static final Map<String, MimeType> ASSETS = Map.of(
            "dashboard.css", MimeType.valueOf(CSS),
            "dashboard.js", MimeType.valueOf(JAVASCRIPT));

    /** The page itself, at {@code <base path>/guarddashboard}; it loads its assets and data by relative URLs. */
    @ReadOperation(produces = HTML)
    public Resource page() {
        return new ClassPathResource(FOLDER + "index.html");
    }

    /** One of the page's own files ({@code dashboard.css}, {@code dashboard.js}); anything else is a 404. */
    @ReadOperation(produces = { JAVASCRIPT, CSS })
    public WebEndpointResponse<Resource> asset(@Selector String file) {
        MimeType type = ASSETS.get(file);
        if (type == null) {
            return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
        }
        return new WebEndpointResponse<>(new ClassPathResource(FOLDER + file), WebEndpointResponse.STATUS_OK, type);
    }
}
