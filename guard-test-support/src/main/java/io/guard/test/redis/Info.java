package io.guard.test.redis;

import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the {@code field:value} lines of an {@code INFO} reply, skipping the {@code # Section} headers. */
final class Info {

    private Info() {
    }

    static Map<String, String> parse(String reply) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : reply.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }
}
