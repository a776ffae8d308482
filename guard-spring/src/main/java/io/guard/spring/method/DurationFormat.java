package io.guard.spring.method;

import java.time.Duration;

/**
 * Writes durations the way users write them in annotations: {@code 60s}, {@code 500ms}, {@code 5m}.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public final class DurationFormat {

    private DurationFormat() {
    }

    public static String compact(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 3_600_000 == 0 && millis > 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0 && millis >= 600_000) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }
}
