package io.guard.sample.web;

import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Names the field of a JSON body that has a value of the wrong type ({@code failureRate must be a number but was
 * 'often'}). The Jackson 2 twin (Spring Boot 3.5) of guard-sample-app's Jackson 3 class of the same name: the one
 * source file the two builds of the sample do not share.
 */
final class JsonMismatches {

    private JsonMismatches() {
    }

    static Optional<String> describe(Throwable cause) {
        if (!(cause instanceof MismatchedInputException mismatch) || mismatch.getPath().isEmpty()) {
            return Optional.empty();
        }
        String field = mismatch.getPath().stream()
                .map(reference -> reference.getFieldName() == null
                        ? "[" + reference.getIndex() + "]" : reference.getFieldName())
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
