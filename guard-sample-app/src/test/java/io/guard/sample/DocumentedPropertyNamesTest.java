package io.guard.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.guard.spring.autoconfigure.GuardProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every property name that {@code docs/} and the README quote is one Guard binds: a user who copies a name from the
 * docs never meets "Guard does not know these properties". {@code guard.*} names are judged by binding them to
 * {@link GuardProperties} with Boot's strict binder (the one the start-up report uses), so map entries such as
 * {@code instances.<name>.tiers.<tier>.rate} count; {@code management.*} names are judged by the starter's
 * configuration metadata.
 */
class DocumentedPropertyNamesTest {

    private static final Path DOCS = Path.of("..", "docs");
    private static final Path README = Path.of("..", "README.md");
    private static final Pattern NAME = Pattern.compile(
            "(?<![\\w.$/-])((?:guard|management\\.(?:endpoint|health)\\.guard[a-z]*)(?:\\.(?:[a-z0-9*_-]+|<[^>]+>))+)");

    /**
     * Names the docs quote on purpose as mistakes (what the start-up report rejects). Each must stay a mistake:
     * {@link #theMistakesTheDocsShowAreStillMistakes()} fails if one of them starts to bind.
     */
    private static final Set<String> SHOWN_AS_MISTAKES = Set.of(
            "guard.rate-limit.defaults.algoritm",
            "guard.rate-limit.instances.x.rat",
            "guard.rate-limit.limits.order-submit.wait-for-replicas",
            "guard.circuit-breaker.configs.*",
            "management.endpoint.guard.enabled");

    @Test
    void everyQuotedPropertyNameIsOneGuardBinds() {
        Map<String, List<String>> unknown = new TreeMap<>();
        documentedNames().forEach((name, where) -> {
            if (!SHOWN_AS_MISTAKES.contains(name) && !isBound(name)) {
                unknown.put(name, where);
            }
        });
        assertThat(unknown).as("property names quoted in docs/ or README.md that Guard does not bind "
                + "(name -> where)").isEmpty();
    }

    @Test
    void theMistakesTheDocsShowAreStillMistakes() {
        assertThat(SHOWN_AS_MISTAKES).allSatisfy(name ->
                assertThat(isBound(name)).as("%s is quoted in docs/ as a mistake but now binds", name).isFalse());
        assertThat(documentedNames().keySet()).as("every listed mistake is still quoted somewhere in docs/")
                .containsAll(SHOWN_AS_MISTAKES);
    }

    @Test
    void theCheckRejectsWhatTheEventStreamDocOnceGotWrong() {
        assertThat(isBound("guard.events.stream.*")).isFalse();
        assertThat(isBound("management.endpoint.guardevents.stream.*")).isTrue();
        assertThat(isBound("guard.rate-limit.instances.<name>.tiers.<tier>.rate")).isTrue();
        assertThat(isBound("guard.rate-limit.instances.api.default-tier")).isTrue();
        assertThat(isBound("guard.rate-limit.instances.api.tirs.gold.rate")).isFalse();
    }

    /**
     * Names in the docs under a group Guard binds, so tag names ({@code guard.state}) and the misspelt prefixes that
     * configuration.md shows ({@code guard.rate-limits.*}) are left alone.
     */
    private static Map<String, List<String>> documentedNames() {
        Set<String> groups = topLevelGroups();
        Map<String, List<String>> names = new TreeMap<>();
        try (Stream<Path> files = Files.walk(DOCS)) {
            List<Path> docs = new ArrayList<>(files.filter(p -> p.toString().endsWith(".md")).sorted().toList());
            docs.add(README);
            for (Path doc : docs) {
                List<String> lines = Files.readAllLines(doc);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher matcher = NAME.matcher(lines.get(i));
                    while (matcher.find()) {
                        String name = matcher.group(1);
                        if (name.startsWith("management.") || groups.contains(name.split("\\.")[1])) {
                            names.computeIfAbsent(name, n -> new ArrayList<>()).add(doc.getFileName() + ":" + (i + 1));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(names).as("names found in %s", DOCS).hasSizeGreaterThan(50);
        return names;
    }

    private static boolean isBound(String documented) {
        // configuration.md writes a setting that goes under defaults or an instance as guard.circuit-breaker.*.name
        String name = documented.replaceAll("<[^>]+>", "x").replace(".*.", ".defaults.");
        if (name.startsWith("management.")) {
            Pattern pattern = Pattern.compile(Pattern.quote(name).replace(".*\\E", "\\E\\..+"));
            return metadataNames().stream().anyMatch(known -> pattern.matcher(known).matches());
        }
        if (name.endsWith(".*")) {
            String parent = name.substring(0, name.length() - 2);
            return childCandidates().stream().anyMatch(child -> bindsOne(parent + "." + child));
        }
        return bindsOne(name) || childCandidates().stream().anyMatch(child -> bindsOne(name + "." + child));
    }

    /** Whether Boot's strict binder takes {@code name} as one of {@link GuardProperties}' (its value may not fit). */
    private static boolean bindsOne(String name) {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(name, "1")));
        try {
            binder.bind("guard", Bindable.of(GuardProperties.class), new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
            return true;
        } catch (BindException e) {
            return !(e.getCause() instanceof UnboundConfigurationPropertiesException);
        }
    }

    /** Leaf segments that can follow a documented prefix (for {@code prefix.*} and for map or group names). */
    private static Set<String> childCandidates() {
        Set<String> children = new LinkedHashSet<>();
        for (String known : metadataNames()) {
            String[] segments = known.split("\\.");
            children.add(segments[segments.length - 1]);
            if (segments.length > 1) {
                children.add(segments[segments.length - 2] + "." + segments[segments.length - 1]);
            }
        }
        // a limit instance's own names, beside those it shares with defaults (the metadata does not list map values)
        children.addAll(List.of("tiers.x.rate", "default-tier"));
        return children;
    }

    private static Set<String> topLevelGroups() {
        Set<String> groups = new LinkedHashSet<>();
        metadataNames().stream().filter(n -> n.startsWith("guard.")).forEach(n -> groups.add(n.split("\\.")[1]));
        return groups;
    }

    private static Set<String> metadataNames() {
        Set<String> names = new LinkedHashSet<>();
        try {
            for (URL url : Collections.list(DocumentedPropertyNamesTest.class.getClassLoader()
                    .getResources("META-INF/spring-configuration-metadata.json"))) {
                try (InputStream in = url.openStream()) {
                    for (JsonNode property : new ObjectMapper().readTree(in).path("properties")) {
                        String name = property.get("name").asText();
                        if (name.startsWith("guard.") || name.matches("management\\.(endpoint|health)\\.guard.*")) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(names).as("guard.* properties in the starter's configuration metadata").isNotEmpty();
        return names;
    }
}
