package io.guard.spring.routes;

import java.util.List;

/**
 * One route as configured ({@code guard.rate-limit.routes[i]}), not yet checked: a limit applied by URL pattern to
 * requests no annotation can reach (a third-party controller, static resources, a whole API prefix).
 *
 * @param name    the limit's name; its settings come from {@code guard.rate-limit.instances.<name>} and the defaults
 * @param paths   path patterns in Spring's {@code PathPattern} syntax, e.g. {@code /api/**}
 * @param methods HTTP methods the route applies to; empty for every method
 * @param key     SpEL over the request ({@code #request}, {@code #clientIp}, {@code #headers}); blank for one key
 * @param permits the permits each matching request takes: the estimate, when the response says what it cost
 * @param costHeader    the response header holding what a request cost, charged after the response; blank for none
 * @param costOnFailure what a request whose handling failed (an exception) is charged: {@code estimate} (default)
 *                      or {@code none}
 */
public record RouteDefinition(String name, List<String> paths, List<String> methods, String key, long permits,
                              String costHeader, String costOnFailure) {

    /** A route whose requests cost their permits, nothing charged after the response. */
    public RouteDefinition(String name, List<String> paths, List<String> methods, String key, long permits) {
        this(name, paths, methods, key, permits, null, null);
    }
}
