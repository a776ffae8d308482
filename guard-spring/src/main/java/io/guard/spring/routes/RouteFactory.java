package io.guard.spring.routes;

import io.guard.spring.method.AnnotationSite;
import io.guard.spring.method.CostSpec;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.method.GuardExpressionParser;
import io.guard.spring.method.LimitSpec;
import io.guard.spring.method.LimitSpecFactory;
import org.springframework.expression.Expression;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks one configured route and builds it, reporting every mistake in it (not only the first) as a
 * {@link GuardAnnotationException} naming {@code guard.rate-limit.routes[i]}, the field and the value.
 */
final class RouteFactory {

    /** The variables of a route's key expression, besides {@code #root} (the request too). */
    static final Set<String> VARIABLES = Set.of("request", "clientIp", "headers");

    private static final List<String> METHODS =
            List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE");

    private final GuardExpressionParser parser;
    private final LimitSpecFactory limits;

    RouteFactory(GuardExpressionParser parser, LimitSpecFactory limits) {
        this.parser = parser;
        this.limits = limits;
    }

    /** The route, or null when {@code problems} received what is wrong with it. */
    Route create(int index, RouteDefinition definition, List<GuardAnnotationException> problems) {
        var site = AnnotationSite.property("guard.rate-limit.routes[" + index + "]");
        int before = problems.size();
        List<PathPattern> paths = paths(site, definition.paths(), problems);
        Set<String> methods = methods(site, definition.methods(), problems);
        Expression key = null;
        String keyText = definition.key() == null ? "" : definition.key().trim();
        if (!keyText.isEmpty()) {
            try {
                key = parser.parse(site, "key", keyText, VARIABLES);
            } catch (GuardAnnotationException e) {
                problems.add(e);
            }
        }
        String name = definition.name() == null ? "" : definition.name().trim();
        LimitSpec spec = null;
        if (name.isEmpty()) {
            problems.add(site.error("name", "", "is empty",
                    "Name the route's limit; its settings come from guard.rate-limit.instances.<name>."));
        } else {
            try {
                spec = withCost(site, limits.forConfiguration(name, key, definition.permits(), site), definition);
            } catch (GuardAnnotationException e) {
                problems.add(e);
            }
        }
        return problems.size() > before ? null : new Route(paths, methods, spec);
    }

    /** {@code spec} charging the route's {@code cost-header}, checked; {@code spec} itself when it has none. */
    static LimitSpec withCost(AnnotationSite site, LimitSpec spec, RouteDefinition definition) {
        CostSpec cost = CostSpec.ofHeader(site, "", definition.costHeader(), definition.costOnFailure(), spec);
        return cost == null ? spec : spec.withCost(cost);
    }

    private static List<PathPattern> paths(AnnotationSite site, List<String> texts,
                                           List<GuardAnnotationException> problems) {
        if (texts == null || texts.isEmpty()) {
            problems.add(site.error("paths", "[]", "is empty",
                    "List the path patterns the route limits, e.g. /api/**."));
            return List.of();
        }
        List<PathPattern> paths = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i) == null ? "" : texts.get(i).trim();
            if (!text.startsWith("/")) {
                problems.add(site.error("paths[" + i + "]", text, "does not start with /",
                        "Write the path within the application, e.g. /api/**."));
                continue;
            }
            try {
                paths.add(PathPatternParser.defaultInstance.parse(text));
            } catch (PatternParseException e) {
                problems.add(site.error("paths[" + i + "]", text, "is not a valid path pattern: "
                        + e.getMessage(), "Use Spring's PathPattern syntax: /static/*.css, /api/**, /users/{id}."));
            }
        }
        return paths;
    }

    private static Set<String> methods(AnnotationSite site, List<String> texts,
                                       List<GuardAnnotationException> problems) {
        Set<String> methods = new LinkedHashSet<>();
        if (texts == null) {
            return methods;
        }
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i) == null ? "" : texts.get(i).trim().toUpperCase(Locale.ROOT);
            if (METHODS.contains(text)) {
                methods.add(text);
            } else {
                problems.add(site.error("methods[" + i + "]", texts.get(i), "is not an HTTP method",
                        "Use one of " + METHODS + ", or leave methods out for all of them."));
            }
        }
        return methods;
    }
}
