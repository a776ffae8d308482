package io.guard.spring.autoconfigure;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

import java.util.List;
import java.util.Set;

/**
 * Reports properties under {@code guard.*} that bind to nothing (a misspelling, or Resilience4j's {@code configs} and
 * {@code base-config}, which Guard does not have) with the closest valid name, instead of Spring Boot's generic "left
 * unbound" message. Ordered first so that it answers before Boot's own analyzer.
 *
 * <p>The unknown fields are found by binding {@link GuardProperties} with {@code ignoreUnknownFields = false}.
 */
class GuardUnknownPropertyFailureAnalyzer extends AbstractFailureAnalyzer<UnboundConfigurationPropertiesException>
        implements Ordered {

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnboundConfigurationPropertiesException cause) {
        List<ConfigurationProperty> unknown = cause.getUnboundProperties().stream()
                .filter(property -> property.getName().toString().startsWith("guard."))
                .sorted()
                .toList();
        if (unknown.isEmpty()) {
            return null;
        }
        StringBuilder description = new StringBuilder("Guard does not know these properties; they would be ignored:\n");
        StringBuilder action = new StringBuilder();
        for (ConfigurationProperty property : unknown) {
            String name = property.getName().toString();
            description.append("\n    ").append(name)
                    .append(property.getOrigin() == null ? "" : " (" + property.getOrigin() + ")");
            action.append(action.isEmpty() ? "" : "\n").append(fix(property));
        }
        return new FailureAnalysis(description.toString(), action.toString(), cause);
    }

    private static String fix(ConfigurationProperty property) {
        String name = property.getName().toString();
        Set<String> sharedConfigs = Set.of("configs", "base-config");
        for (int i = 0; i < property.getName().getNumberOfElements(); i++) {
            if (sharedConfigs.contains(property.getName().getElement(i,
                    org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form.DASHED))) {
                String section = name.startsWith("guard.rate-limit.") ? "guard.rate-limit" : "guard.circuit-breaker";
                return "Replace " + name + ": Guard has no named shared configurations (Resilience4j's configs and "
                        + "base-config). Put settings every instance shares under " + section + ".defaults.*, and "
                        + "the rest under " + section + ".instances.<name>.*.";
            }
        }
        return GuardPropertyNames.closest(property.getName())
                .map(closest -> "Replace " + name + " with " + closest + ".")
                .orElse("Remove " + name + " or use one of the properties in docs/configuration.md.");
    }
}
