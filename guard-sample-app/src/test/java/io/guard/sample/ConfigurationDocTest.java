package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code docs/configuration.md} true to the starter: every {@code guard.*} property in the starter's
 * configuration metadata has a row, every row names a real property, and the documented defaults are the ones the
 * metadata states.
 */
class ConfigurationDocTest {

    private static final Path DOC = Path.of("..", "docs", "configuration.md");
    private static final Pattern ROW = Pattern.compile("^\\| `(guard\\.[^`]+)` \\| ([^|]+) \\|", Pattern.MULTILINE);
    private static final Pattern DESCRIBED_DEFAULT = Pattern.compile("default:? ([^)]+)\\)");

    @Test
    void documentsEveryPropertyOfTheStarterAndNoOther() throws IOException {
        Map<String, JsonNode> metadata = guardMetadata();
        Map<String, String> documented = documentedDefaults();

        assertThat(documented.keySet())
                .as("rows of %s vs. the starter's spring-configuration-metadata.json; add or remove rows", DOC)
                .containsExactlyInAnyOrderElementsOf(metadata.keySet());
    }

    @Test
    void documentsTheDefaultsTheStarterDeclares() throws IOException {
        Map<String, String> documented = documentedDefaults();

        guardMetadata().forEach((row, property) -> {
            String expected = property.has("defaultValue") ? property.get("defaultValue").asText()
                    : describedDefault(property.path("description").asText());
            if (expected != null && documented.containsKey(row)) {
                assertThat(documented.get(row)).as("default of %s in %s", row, DOC).isEqualToIgnoringCase(expected);
            }
        });
    }

    /** The metadata's guard.* properties, keyed by the name their row uses ({@code defaults.} written as {@code *.}). */
    private static Map<String, JsonNode> guardMetadata() throws IOException {
        for (URL url : Collections.list(ConfigurationDocTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                JsonNode properties = new ObjectMapper().readTree(in).path("properties");
                Map<String, JsonNode> guard = new LinkedHashMap<>();
                properties.forEach(p -> {
                    String name = p.get("name").asText();
                    if (name.startsWith("guard.")) {
                        guard.put(rowName(name), p);
                    }
                });
                if (!guard.isEmpty()) {
                    return guard;
                }
            }
        }
        throw new IllegalStateException("No spring-configuration-metadata.json with guard.* properties on the test "
                + "classpath; the starter's annotation processor should have written one");
    }

    private static String rowName(String property) {
        return property
                .replace("guard.circuit-breaker.defaults.", "guard.circuit-breaker.*.")
                .replace("guard.rate-limit.defaults.", "guard.rate-limit.*.")
                .replaceAll("^(guard\\.(circuit-breaker|rate-limit)\\.instances)$", "$1.<name>");
    }

    private static Map<String, String> documentedDefaults() throws IOException {
        Map<String, String> rows = new LinkedHashMap<>();
        Matcher row = ROW.matcher(Files.readString(DOC));
        while (row.find()) {
            String previous = rows.put(row.group(1), row.group(2).trim().replace("`", ""));
            assertThat(previous).as("%s has two rows in %s", row.group(1), DOC).isNull();
        }
        return rows;
    }

    private static String describedDefault(String description) {
        Matcher matcher = DESCRIBED_DEFAULT.matcher(description);
        return matcher.find() ? matcher.group(1).trim() : null;
    }
}
