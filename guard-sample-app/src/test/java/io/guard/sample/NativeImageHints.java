package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The native-image metadata Spring AOT wrote under {@code META-INF/native-image/}: one
 * {@code reachability-metadata.json} on Spring Framework 7 (Boot 4), {@code reflect-config.json} and
 * {@code resource-config.json} on Framework 6.2 (Boot 3.5).
 */
record NativeImageHints(List<JsonNode> reflection, String resources) {

    static NativeImageHints read(Path classes) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> reflection = new ArrayList<>();
        StringBuilder resources = new StringBuilder();
        try (Stream<Path> files = Files.walk(classes.resolve("META-INF/native-image"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = file.getFileName().toString();
                if (name.equals("reachability-metadata.json")) {
                    JsonNode metadata = json.readTree(file.toFile());
                    metadata.path("reflection").forEach(reflection::add);
                    resources.append(metadata.path("resources"));
                } else if (name.equals("reflect-config.json")) {
                    json.readTree(file.toFile()).forEach(reflection::add);
                } else if (name.equals("resource-config.json")) {
                    resources.append(json.readTree(file.toFile()));
                }
            }
        }
        // Framework 6.2 writes resource patterns as regular expressions (\Qguard/lua/\E...): keep the plain text.
        return new NativeImageHints(reflection, resources.toString().replace("\\Q", "").replace("\\E", "")
                .replace("\\\\", "").replace("\\/", "/"));
    }

    /** Every type the metadata names (registered for reflection, with or without members). */
    List<String> types() {
        List<String> names = new ArrayList<>();
        for (JsonNode entry : reflection) {
            names.add(entry.has("type") ? entry.path("type").asText() : entry.path("name").asText());
        }
        return names;
    }

    /** The methods a native image may invoke on {@code type}. */
    List<String> methods(String type) {
        List<String> names = new ArrayList<>();
        for (JsonNode entry : reflection) {
            String name = entry.has("type") ? entry.path("type").asText() : entry.path("name").asText();
            if (type.equals(name)) {
                entry.path("methods").forEach(method -> names.add(method.path("name").asText()));
            }
        }
        return names;
    }
}
