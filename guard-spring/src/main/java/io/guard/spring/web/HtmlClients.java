package io.guard.spring.web;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;

/**
 * Tells browsers from API clients the way Spring Boot's error handling does, so that a refusal answers like the
 * application's other errors: a client whose most wanted specific media type is HTML gets the application's error
 * page; every other client (JSON, problem+json, {@code *}/{@code *}, no Accept at all) gets the problem detail.
 * {@code *}/{@code *} is ignored, as Boot ignores it: a browser lists it last, curl sends nothing else.
 */
final class HtmlClients {

    private HtmlClients() {
    }

    /** @param accept a servlet request's Accept header values; null when the container does not tell */
    static boolean prefersHtml(Enumeration<String> accept) {
        return accept != null && prefersHtml(Collections.list(accept));
    }

    /** @param accept the request's Accept header values (none for a request without the header) */
    static boolean prefersHtml(List<String> accept) {
        if (accept == null || accept.isEmpty()) {
            return false;
        }
        List<MediaType> types;
        try {
            types = new ArrayList<>(MediaType.parseMediaTypes(accept));
        } catch (InvalidMediaTypeException e) {
            return false;
        }
        types.removeIf(type -> type.isWildcardType() && type.isWildcardSubtype());
        // Stable: among equal qualities the client's own order counts.
        types.sort(Comparator.comparingDouble(MediaType::getQualityValue).reversed());
        return !types.isEmpty() && types.get(0).getQualityValue() > 0
                && types.get(0).isCompatibleWith(MediaType.TEXT_HTML);
    }
}
