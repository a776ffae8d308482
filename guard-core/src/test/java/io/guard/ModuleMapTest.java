package io.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/design.md's module map against the source tree, so that the map cannot go stale: a module or main package
 * added, moved or removed without the map (or a map line left behind) fails the build.
 */
class ModuleMapTest {

    @Test
    void theDesignPagesMapListsEveryModuleAndMainPackageAndNothingElse() {
        Path root = ModuleMap.repositoryRoot(Path.of(""));
        Map<String, Set<String>> documented = ModuleMap.documented(root.resolve("docs/design.md"));
        Map<String, Set<String>> actual = ModuleMap.actual(root);

        assertThat(actual).as("modules of %s", root.resolve("pom.xml")).containsKey("guard-core");
        assertThat(ModuleMap.differences(documented, actual))
                .as("docs/design.md's module map (section \"Modules\") against the source tree; update the map")
                .isEmpty();
    }

    @Test
    void reportsEachKindOfDriftOnASmallTree(@TempDir Path root) throws IOException {
        write(root.resolve("pom.xml"), "<project><modules><module>a</module><module>b</module></modules></project>");
        write(root.resolve("a/src/main/java/io/guard/one/One.java"), "package io.guard.one;");
        write(root.resolve("a/src/main/java/io/guard/two/Two.java"), "package io.guard.two;");
        write(root.resolve("b/src/main/java/io/guard/three/Three.java"), "package io.guard.three;");
        write(root.resolve("docs/design.md"), """
                # Design
                ## Modules
                ```
                pom.xml       parent
                a/            module a
                  io.guard.one      listed and present
                  io.guard.gone     listed, no source
                                    a description line
                c/            not a module
                ```
                ## Next
                ```
                b/
                  io.guard.three
                ```
                """);

        assertThat(ModuleMap.repositoryRoot(root.resolve("a/src"))).isEqualTo(root.toAbsolutePath().normalize());
        assertThat(ModuleMap.differences(ModuleMap.documented(root.resolve("docs/design.md")), ModuleMap.actual(root)))
                .containsExactly(
                        "package io.guard.gone is in the map under a but has no source in a/src/main/java",
                        "package io.guard.two of a is missing from the map",
                        "module b is missing from the map",
                        "module c is in the map but not a module of the parent pom");
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
