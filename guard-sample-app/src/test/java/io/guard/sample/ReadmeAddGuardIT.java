package io.guard.sample;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's "Add Guard to your application" section, taken literally: its dependencies are the sample's, and the
 * sample started with nothing but its YAML snippet (plus the one limit the snippet does not show) serves the
 * endpoints the tour shows: Prometheus, and health with Guard's details.
 */
class ReadmeAddGuardIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theSnippetsDependenciesAreTheSamplesWithoutTheJCacheApi() throws IOException {
        String section = addGuardSection();
        String pom = Files.readString(Path.of("pom.xml"));
        for (String artifact : new String[] {"redisson", "spring-boot-starter-actuator", "micrometer-registry-prometheus"}) {
            assertThat(section).contains("<artifactId>" + artifact + "</artifactId>");
            assertThat(pom).contains("<artifactId>" + artifact + "</artifactId>");
        }
        assertThat(section).doesNotContain("<artifactId>redisson-spring-boot-starter</artifactId>");
        assertThat(section).contains("<exclusion><groupId>javax.cache</groupId><artifactId>cache-api</artifactId></exclusion>");
        assertThat(pom).contains("<exclusion><groupId>javax.cache</groupId><artifactId>cache-api</artifactId></exclusion>");
    }

    @Test
    void theSnippetsYamlAloneServesWhatTheTourShows(@TempDir Path dir) throws IOException {
        Matcher yaml = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL).matcher(addGuardSection());
        assertThat(yaml.find()).isTrue();
        Path config = Files.writeString(dir.resolve("application.yml"), yaml.group(1));

        try (ConfigurableApplicationContext app = new SpringApplication(OrderServiceApplication.class).run(
                "--spring.config.location=file:" + config, "--server.port=0", "--sample.redis.embedded=always",
                // the sample's other limits, which the README's snippet leaves out
                "--guard.rate-limit.instances.order-detail.rate=100",
                "--guard.rate-limit.instances.order-detail.interval=1s",
                "--guard.rate-limit.instances.order-status.rate=2",
                "--guard.rate-limit.instances.order-status.interval=10s",
                "--guard.rate-limit.instances.order-submit-trial.rate=3",
                "--guard.rate-limit.instances.order-submit-trial.interval=60s",
                "--guard.rate-limit.instances.order-submit-trial.shadow=true")) {
            Http http = new Http(app.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
            assertThat(http.post("/orders?userId=42").status()).isEqualTo(201);

            Http.Answer prometheus = http.get("/actuator/prometheus", "text/plain");
            assertThat(prometheus.status()).as("%s", prometheus).isEqualTo(200);
            assertThat(prometheus.response().body()).contains("guard_ratelimit_requests_total{name=\"order-submit\"");

            Http.Answer health = http.get("/actuator/health");
            assertThat(health.status()).as("%s", health).isEqualTo(200);
            assertThat(health.body().path("components").path("guard").path("components").path("rateLimitBackend")
                    .path("details").path("backend").asText()).isEqualTo("redis");
            assertThat(health.body().path("components").path("guard").path("components").path("circuitBreakers")
                    .path("components").has("inventory")).as("%s", health).isTrue();
        }
    }

    private static String addGuardSection() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("## Add Guard to your application");
        int end = readme.indexOf("\n## ", start + 1);
        assertThat(start).as("README has an 'Add Guard to your application' section").isNotNegative();
        return readme.substring(start, end);
    }
}
