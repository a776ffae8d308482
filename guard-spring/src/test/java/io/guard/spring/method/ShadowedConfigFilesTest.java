package io.guard.spring.method;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A test's application.properties hides the application's, and with it the limits configured there. */
class ShadowedConfigFilesTest {

    @TempDir
    Path root;

    private ClassLoader classPath(String testFile, String mainFile, String name) throws IOException {
        Path testClasses = Files.createDirectories(root.resolve("test-classes"));
        Path classes = Files.createDirectories(root.resolve("classes"));
        if (testFile != null) {
            Files.writeString(testClasses.resolve(name), testFile);
        }
        Files.writeString(classes.resolve(name), mainFile);
        return new URLClassLoader(new URL[] {testClasses.toUri().toURL(), classes.toUri().toURL()}, null);
    }

    @Test
    void namesBothFilesWhenTheHiddenOneConfiguresTheLimit() throws IOException {
        ClassLoader loader = classPath("server.port=9966\n",
                "guard.rate-limit.instances.owner-add.rate=20\n", "application.properties");
        assertThat(ShadowedConfigFiles.hint(loader, "owner-add")).hasValueSatisfying(hint -> assertThat(hint)
                .contains("application.properties is on the class path more than once")
                .contains("(" + root.resolve("test-classes").resolve("application.properties") + ")")
                .contains("settings in " + root.resolve("classes").resolve("application.properties") + " are not read")
                .contains("application-test.properties").contains("@ActiveProfiles(\"test\")"));
    }

    @Test
    void readsYamlToo() throws IOException {
        ClassLoader loader = classPath("server:\n  port: 9966\n",
                "guard:\n  rate-limit:\n    instances:\n      owner-add:\n        rate: 20\n", "application.yml");
        assertThat(ShadowedConfigFiles.hint(loader, "owner-add")).hasValueSatisfying(hint -> assertThat(hint)
                .contains("application.yml is on the class path more than once")
                .contains("application-test.yml"));
    }

    @Test
    void saysNothingWhenTheHiddenFileDoesNotConfigureTheLimit() throws IOException {
        ClassLoader loader = classPath("server.port=9966\n", "guard.rate-limit.instances.other.rate=20\n",
                "application.properties");
        assertThat(ShadowedConfigFiles.hint(loader, "owner-add")).isEmpty();
    }

    @Test
    void saysNothingWhenOnlyOneFileExists() throws IOException {
        ClassLoader loader = classPath(null, "guard.rate-limit.instances.owner-add.rate=20\n",
                "application.properties");
        assertThat(ShadowedConfigFiles.hint(loader, "owner-add")).isEmpty();
    }
}
