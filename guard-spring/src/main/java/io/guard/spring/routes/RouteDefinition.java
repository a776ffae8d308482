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
 * @param permits the permits each matching request takes
 */
public record RouteDefinition(String name, List<String> paths, List<String> methods, String key, long permits) {
}
