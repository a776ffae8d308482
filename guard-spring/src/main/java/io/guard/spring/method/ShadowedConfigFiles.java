package io.guard.spring.method;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Spring Boot reads only the first {@code application.properties} (or {@code .yml}, {@code .yaml}) on the class path.
 * A test's own file comes first and hides the application's, and with it every {@code guard.*} setting there: a limit
 * whose rate lives in configuration then has none, and start-up fails for a reason the message alone cannot show.
 * This finds that case, so the failure can name both files and what to do.
 */
final class ShadowedConfigFiles {

    private static final List<String> NAMES = List.of("application.properties", "application.yml", "application.yaml");

    private ShadowedConfigFiles() {
    }

    /**
     * What to do when a hidden configuration file mentions {@code limit}: empty when no file of that name that
     * Spring Boot skips mentions it.
     */
    static Optional<String> hint(ClassLoader loader, String limit) {
        for (String name : NAMES) {
            List<URL> found = resources(loader, name);
            for (URL hidden : found.subList(Math.min(1, found.size()), found.size())) {
                if (mentions(hidden, limit)) {
                    return Optional.of(name + " is on the class path more than once and Spring Boot reads only the "
                            + "first (" + shown(found.get(0)) + "), so the settings in " + shown(hidden) + " are not read. In a "
                            + "test, copy the guard.* settings into the test's " + name + ", or rename the test's file "
                            + "to application-test" + name.substring(name.indexOf('.')) + " and add "
                            + "@ActiveProfiles(\"test\").");
                }
            }
        }
        return Optional.empty();
    }

    private static List<URL> resources(ClassLoader loader, String name) {
        try {
            return Collections.list(loader.getResources(name));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** A file on disk as its path, anything else (a jar entry) as its URL. */
    private static String shown(URL resource) {
        try {
            return "file".equals(resource.getProtocol()) ? Path.of(resource.toURI()).toString() : resource.toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return resource.toString();
        }
    }

    private static boolean mentions(URL file, String limit) {
        try (InputStream in = file.openStream()) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.contains("guard") && text.contains(limit);
        } catch (IOException e) {
            return false;
        }
    }
}
