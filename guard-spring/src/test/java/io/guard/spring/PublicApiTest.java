package io.guard.spring;

import io.guard.spring.autoconfigure.GuardProperties;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * guard-spring's public types against the list in docs/api.md, both ways, so that the public API cannot grow (or a
 * documented type disappear) without the page saying so.
 */
class PublicApiTest {

    private static final Pattern ROW = Pattern.compile("^\\| `(io\\.guard\\.spring[\\w.]*)` \\|(.*)$");
    private static final Pattern NAME = Pattern.compile("`([A-Z]\\w*(?:\\.[A-Z]\\w*)*)`");

    @Test
    void thePublicTypesOfGuardSpringAreExactlyTheDocumentedOnes() throws Exception {
        assertThat(actual()).as("public types of guard-spring (left) against docs/api.md; update the page or the "
                + "modifier").containsExactlyElementsOf(documented(root().resolve("docs/api.md")));
    }

    @Test
    void readsTheTableOfThePage() throws IOException {
        Path page = Files.createTempFile("api", ".md");
        try {
            Files.writeString(page, """
                    ## guard-spring
                    | package | for applications | internal |
                    |---|---|---|
                    | `io.guard.spring.one` | `A` (why: `guard.x.y` is bound), `B.C` | `D` |
                    | `io.guard.spring.two` | | `E` |
                    ## guard-core
                    | `io.guard.spring.three` | `F` | |
                    """);
            assertThat(documented(page)).containsExactly("io.guard.spring.one.A", "io.guard.spring.one.B.C",
                    "io.guard.spring.one.D", "io.guard.spring.two.E");
        } finally {
            Files.delete(page);
        }
    }

    /** The types named in the section "guard-spring" of the page: each table row's package and backticked names. */
    static Set<String> documented(Path page) throws IOException {
        Set<String> types = new TreeSet<>();
        boolean inSection = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("## ")) {
                inSection = line.equals("## guard-spring");
            }
            Matcher row = ROW.matcher(line);
            if (inSection && row.matches()) {
                Matcher name = NAME.matcher(row.group(2));
                while (name.find()) {
                    types.add(row.group(1) + "." + name.group(1));
                }
            }
        }
        return types;
    }

    /** Every public type (top-level or nested) compiled from guard-spring's sources, by canonical name. */
    private static Set<String> actual() throws IOException, ClassNotFoundException {
        String location = GuardProperties.class.getProtectionDomain().getCodeSource().getLocation().toString();
        Set<String> types = new TreeSet<>();
        for (Resource resource : new PathMatchingResourcePatternResolver()
                .getResources("classpath*:io/guard/spring/**/*.class")) {
            String url = resource.getURL().toString();
            int start = url.indexOf("io/guard/spring/");
            if (!url.contains(location.replaceFirst("^jar:", "").replaceFirst("!/$", "")) || start < 0) {
                continue;
            }
            String name = url.substring(start, url.length() - ".class".length()).replace('/', '.');
            Class<?> type = Class.forName(name, false, PublicApiTest.class.getClassLoader());
            if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
                continue;
            }
            boolean visible = true;
            for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
                visible &= Modifier.isPublic(t.getModifiers());
            }
            if (visible) {
                types.add(type.getCanonicalName());
            }
        }
        assertThat(types).as("guard-spring's classes at %s", location).contains(GuardProperties.class.getName());
        return types;
    }

    private static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("docs/api.md")) && Files.exists(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no docs/api.md above " + Path.of("").toAbsolutePath());
    }
}
