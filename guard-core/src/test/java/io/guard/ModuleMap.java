package io.guard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The module and package map of docs/design.md, and the same map read from the source tree, so that a test can
 * compare them. In the map's code block under "## Modules", a line {@code name/ ...} starting at the margin names a
 * module and a line {@code   io.guard... ...} indented by two spaces names one of its main packages.
 */
final class ModuleMap {

    private static final Pattern MODULE_LINE = Pattern.compile("^([A-Za-z0-9][\\w.-]*)/(\\s.*)?$");
    private static final Pattern PACKAGE_LINE = Pattern.compile("^  (io\\.guard[\\w.]*)(\\s.*)?$");
    private static final Pattern POM_MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");

    private ModuleMap() {
    }

    /** The repository root: the first directory up from {@code start} that holds docs/design.md and a parent pom. */
    static Path repositoryRoot(Path start) {
        for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            boolean parent = read(dir.resolve("pom.xml")).contains("<modules>");
            if (parent && Files.isRegularFile(dir.resolve("docs/design.md"))) {
                return dir;
            }
        }
        throw new IllegalStateException("No directory above " + start.toAbsolutePath()
                + " holds docs/design.md next to a pom.xml with <modules>");
    }

    /** Module name to its main packages, as the map in {@code designMd} lists them. */
    static Map<String, Set<String>> documented(Path designMd) {
        Map<String, Set<String>> map = new TreeMap<>();
        String current = null;
        boolean inSection = false;
        boolean inBlock = false;
        for (String line : read(designMd).split("\n", -1)) {
            if (line.startsWith("## ")) {
                if (inSection) {
                    break;
                }
                inSection = line.equals("## Modules");
            } else if (inSection && line.startsWith("```")) {
                if (inBlock) {
                    break;
                }
                inBlock = true;
            } else if (inBlock) {
                Matcher module = MODULE_LINE.matcher(line);
                Matcher pkg = PACKAGE_LINE.matcher(line);
                if (module.matches()) {
                    current = module.group(1);
                    if (map.putIfAbsent(current, new TreeSet<>()) != null) {
                        throw new IllegalStateException(designMd + " lists module " + current + " twice");
                    }
                } else if (pkg.matches()) {
                    if (current == null) {
                        throw new IllegalStateException(designMd + " lists package " + pkg.group(1)
                                + " before any module");
                    }
                    map.get(current).add(pkg.group(1));
                }
            }
        }
        if (map.isEmpty()) {
            throw new IllegalStateException(designMd + " has no module map (a code block under \"## Modules\")");
        }
        return map;
    }

    /** Module name to the packages of its src/main/java, for every module of the parent pom under {@code root}. */
    static Map<String, Set<String>> actual(Path root) {
        Map<String, Set<String>> map = new TreeMap<>();
        Matcher module = POM_MODULE.matcher(read(root.resolve("pom.xml")));
        while (module.find()) {
            map.put(module.group(1), packages(root.resolve(module.group(1)).resolve("src/main/java")));
        }
        return map;
    }

    /** Every way the two maps differ, one sentence each; empty when they agree. */
    static List<String> differences(Map<String, Set<String>> documented, Map<String, Set<String>> actual) {
        List<String> differences = new ArrayList<>();
        for (String module : union(documented.keySet(), actual.keySet())) {
            if (!actual.containsKey(module)) {
                differences.add("module " + module + " is in the map but not a module of the parent pom");
                continue;
            }
            if (!documented.containsKey(module)) {
                differences.add("module " + module + " is missing from the map");
                continue;
            }
            for (String pkg : union(documented.get(module), actual.get(module))) {
                if (!actual.get(module).contains(pkg)) {
                    differences.add("package " + pkg + " is in the map under " + module
                            + " but has no source in " + module + "/src/main/java");
                } else if (!documented.get(module).contains(pkg)) {
                    differences.add("package " + pkg + " of " + module + " is missing from the map");
                }
            }
        }
        return differences;
    }

    private static Set<String> packages(Path sources) {
        Set<String> packages = new TreeSet<>();
        if (!Files.isDirectory(sources)) {
            return packages;
        }
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(file -> file.getFileName().toString().endsWith(".java"))
                    .map(file -> sources.relativize(file.getParent()).toString().replace(file.getFileSystem()
                            .getSeparator(), "."))
                    .forEach(packages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return packages;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> union = new TreeSet<>(a);
        union.addAll(b);
        return union;
    }

    private static String read(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file).replace("\r\n", "\n") : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
