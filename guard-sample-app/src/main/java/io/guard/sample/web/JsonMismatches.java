package io.guard.sample.web;

import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Names the field of a JSON body that has a value of the wrong type ({@code failureRate must be a number but was
 * 'often'}). The one class of the sample that depends on the Jackson major version: this is Jackson 3 (Spring Boot
 * 4); the Boot 3.5 build of the sample ({@code guard-sample-app-boot3}) has a Jackson 2 twin of it.
 */
final class JsonMismatches {

    private JsonMismatches() {
    }

    static Optional<String> describe(Throwable cause) {
        if (!(cause instanceof MismatchedInputException mismatch) || mismatch.getPath().isEmpty()) {
            return Optional.empty();
        }
        String field = mismatch.getPath().stream()
                .map(reference -> reference.getPropertyName() == null
                        ? "[" + reference.getIndex() + "]" : reference.getPropertyName())
                .collect(Collectors.joining("."));
        String value = mismatch instanceof InvalidFormatException invalid
                ? " but was '" + invalid.getValue() + "'" : "";
        return Optional.of(field + " must be a " + simpleName(mismatch.getTargetType()) + value);
    }

    private static String simpleName(Class<?> type) {
        if (type == null) {
            return "value of another type";
        }
        return Map.<Class<?>, String>of(Double.class, "number", double.class, "number",
                Long.class, "whole number", long.class, "whole number").getOrDefault(type, type.getSimpleName());
    }
}
