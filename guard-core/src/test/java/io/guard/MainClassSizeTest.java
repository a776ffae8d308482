package io.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The size rule of DEVELOPERS.md, held by the build: no main source file of any module (every
 * {@code src/main/java/**}{@code /*.java} of the repository) is longer than {@value #MAX_LINES} lines. Classes split
 * under the limit grew back over it within hours while nothing checked it; a file over it is split by concern.
 */
class MainClassSizeTest {

    static final int MAX_LINES = 300;

    private static final Set<String> NOT_SOURCES = Set.of(".git", "target", "node_modules", ".idea");

    @Test
    void noMainClassIsLongerThanTheLimit() {
        Path root = ModuleMap.repositoryRoot(Path.of(""));
        assertThat(mainSources(root)).as("main sources under %s", root).isNotEmpty();
        assertThat(oversized(root))
                .as("main classes over %d lines (DEVELOPERS.md, \"Sizes\"): split each by concern", MAX_LINES)
                .isEmpty();
    }

    @Test
    void namesEveryFileOverTheLimitAndNothingElse(@TempDir Path root) throws IOException {
        write(root.resolve("a/src/main/java/io/guard/one/Long.java"), MAX_LINES + 1);
        write(root.resolve("b/nested/src/main/java/io/guard/two/AlsoLong.java"), MAX_LINES + 40);
        write(root.resolve("a/src/main/java/io/guard/one/AtTheLimit.java"), MAX_LINES);
        write(root.resolve("a/src/test/java/io/guard/one/LongTest.java"), MAX_LINES + 1);
        write(root.resolve("a/target/generated-sources/src/main/java/Generated.java"), MAX_LINES + 1);

        assertThat(oversized(root)).containsExactly(
                "a/src/main/java/io/guard/one/Long.java: 301 lines",
                "b/nested/src/main/java/io/guard/two/AlsoLong.java: 340 lines");
    }

    /** Each main source file under {@code root} longer than {@value #MAX_LINES} lines, with its length, by path. */
    static List<String> oversized(Path root) {
        List<String> over = new ArrayList<>();
        for (Path source : mainSources(root)) {
            long lines = lines(source);
            if (lines > MAX_LINES) {
                over.add(root.relativize(source).toString().replace('\\', '/') + ": " + lines + " lines");
            }
        }
        return over;
    }

    /** Every {@code .java} file under a {@code src/main/java} directory, in path order, skipping build output. */
    private static List<Path> mainSources(Path root) {
        List<Path> sources = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return NOT_SOURCES.contains(String.valueOf(dir.getFileName())) && !dir.equals(root)
                            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String path = root.relativize(file).toString().replace('\\', '/');
                    if (path.endsWith(".java") && path.contains("src/main/java/")) {
                        sources.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the main sources under " + root, e);
        }
        sources.sort(null);
        return sources;
    }

    private static long lines(Path source) {
        try (var lines = Files.lines(source)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source, e);
        }
    }

    private static void write(Path file, int lines) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "// line\n".repeat(lines));
    }
}
