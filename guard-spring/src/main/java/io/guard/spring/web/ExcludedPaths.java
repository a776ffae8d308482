package io.guard.spring.web;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import java.util.List;

/** The path patterns a server-wide filter leaves alone ({@code /actuator/**}: health checks answer under load). */
final class ExcludedPaths {

    private final List<PathPattern> patterns;

    ExcludedPaths(List<String> patterns) {
        this.patterns = patterns.stream().map(PathPatternParser.defaultInstance::parse).toList();
    }

    boolean matches(PathContainer pathWithinApplication) {
        for (PathPattern pattern : patterns) {
            if (pattern.matches(pathWithinApplication)) {
                return true;
            }
        }
        return false;
    }
}
