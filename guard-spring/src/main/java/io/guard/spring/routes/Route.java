package io.guard.spring.routes;

import io.guard.spring.method.LimitSpec;
import org.springframework.web.util.pattern.PathPattern;

import java.util.List;
import java.util.Set;

/**
 * A checked route: the requests it matches and the limit it applies to them.
 *
 * @param paths   the parsed path patterns; a request matches when any does
 * @param methods the HTTP methods it applies to, upper case; empty for every method
 * @param spec    the limit, resolved like an annotation's
 */
record Route(List<PathPattern> paths, Set<String> methods, LimitSpec spec) {

    boolean matches(RouteRequest request) {
        if (!methods.isEmpty() && !methods.contains(request.getMethod())) {
            return false;
        }
        for (PathPattern path : paths) {
            if (path.matches(request.pathContainer())) {
                return true;
            }
        }
        return false;
    }
}
