package io.guard;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * guard-bom against the reactor: it pins every published module, at the build's own version, and nothing else.
 * A module is published unless its pom sets {@code maven.deploy.skip} (the samples, the benchmarks, the one-web-stack
 * tests and the Redis test harness do), so a module added to the root pom is either listed in the BOM or marked.
 */
class BomTest {

    private final Path root = ModuleMap.repositoryRoot(Path.of(""));
    private final Pom parent = Pom.read(root.resolve("pom.xml"));
    private final Pom bom = Pom.read(root.resolve("guard-bom/pom.xml"));

    @Test
    void theBomListsEveryPublishedModuleAtTheProjectVersion() {
        Map<String, Boolean> published = new TreeMap<>();
        for (Element module : parent.all("modules/module")) {
            String name = module.getTextContent().trim();
            Pom pom = Pom.read(root.resolve(name).resolve("pom.xml"));
            if (!name.equals("guard-bom")) {
                published.put(pom.text("artifactId"), !"true".equals(pom.text("properties/maven.deploy.skip")));
            }
        }
        var expected = new TreeSet<String>();
        published.forEach((artifact, yes) -> {
            if (yes) {
                expected.add(artifact);
            }
        });
        assertThat(expected).as("what applications depend on must be published")
                .contains("guard-core", "guard-redis", "guard-spring", "guard-spring-boot-starter",
                        "guard-spring-boot3-starter");

        var listed = new TreeSet<String>();
        for (Element dependency : bom.all("dependencyManagement/dependencies/dependency")) {
            String artifact = Pom.child(dependency, "artifactId");
            assertThat(Pom.child(dependency, "groupId")).as(artifact).isEqualTo("io.guard");
            assertThat(Pom.child(dependency, "version")).as(artifact).isEqualTo("${project.version}");
            assertThat(Pom.child(dependency, "type")).as("%s: the main jar only", artifact).isEmpty();
            listed.add(artifact);
        }
        assertThat(listed).as("guard-bom's dependencyManagement against the reactor's published modules (%s); list "
                + "a new module there, or set maven.deploy.skip in its pom", published).isEqualTo(expected);
    }

    @Test
    void theBomFollowsTheParentsVersionAndPinsNothingElse() {
        assertThat(bom.text("parent")).as("an imported BOM brings its parent's dependencyManagement too").isEmpty();
        assertThat(bom.text("groupId")).isEqualTo(parent.text("groupId"));
        assertThat(bom.text("version")).isEqualTo(parent.text("version"));
        assertThat(bom.text("packaging")).isEqualTo("pom");
        assertThat(parent.all("modules/module")).extracting(Element::getTextContent).contains("guard-bom");
    }

    @Test
    void theReadmeImportsTheBomAtTheProjectVersion() throws IOException {
        String readme = Files.readString(root.resolve("README.md"));
        Matcher imported = Pattern.compile("<artifactId>guard-bom</artifactId>\\s*<version>([^<]+)</version>"
                + "\\s*<type>pom</type>\\s*<scope>import</scope>").matcher(readme);
        assertThat(imported.find()).as("README.md imports guard-bom (type pom, scope import)").isTrue();
        assertThat(imported.group(1)).isEqualTo(parent.text("version"));
    }

    @Test
    void theBomCarriesTheParentsReleaseMetadata() {
        String url = parent.text("properties/guard.url");
        assertThat(url).startsWith("https://");
        assertThat(bom.text("url")).isEqualTo(url);
        assertThat(bom.text("scm/url")).isEqualTo(url);
        assertThat(bom.text("licenses/license/name")).isEqualTo(parent.text("licenses/license/name"))
                .isEqualTo("Apache-2.0");
        assertThat(bom.text("developers/developer/email")).isEqualTo(parent.text("developers/developer/email"));
        assertThat(root.resolve("LICENSE")).satisfies(license -> assertThat(Files.readString(license))
                .contains("Apache License", "Version 2.0, January 2004"));
    }
}
