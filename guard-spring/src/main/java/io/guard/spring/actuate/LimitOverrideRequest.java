package io.guard.spring.actuate;

import io.guard.ratelimit.Algorithm;
import org.springframework.boot.convert.DurationStyle;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/** Parses the text fields of an override request, naming the field and the value of anything that does not parse. */
final class LimitOverrideRequest {

    private LimitOverrideRequest() {
    }

    static Duration interval(String text) {
        try {
            return DurationStyle.detectAndParse(text.trim());
        } catch (IllegalArgumentException e) {
            throw GuardEndpoint.invalid("interval '" + text + "' is not a duration; write one such as \"500ms\", "
                    + "\"60s\", \"5m\" or \"PT1M\"");
        }
    }

    static Algorithm algorithm(String text) {
        String normalized = text.trim().replace('-', '_').toUpperCase(Locale.ROOT);
        return Arrays.stream(Algorithm.values()).filter(a -> a.name().equals(normalized)).findFirst()
                .orElseThrow(() -> GuardEndpoint.invalid("algorithm '" + text + "' is not one of "
                        + Arrays.toString(Algorithm.values())));
    }
}
