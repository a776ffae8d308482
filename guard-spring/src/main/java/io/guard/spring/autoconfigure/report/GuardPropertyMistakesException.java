package io.guard.spring.autoconfigure.report;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every {@code guard.*} mistake of one start-up (see {@link GuardPropertiesCheck}), reported by
 * {@link GuardPropertiesFailureAnalyzer} as one message: the values that cannot work, one line each, then the names
 * that bind to nothing, each with the closest valid name or what to write instead.
 */
final class GuardPropertyMistakesException extends GuardPropertiesException {

    private static final long serialVersionUID = 1L;

    private static final String FIX_VALUES = "Fix each value above; the reason after it says what is allowed.";

    private final List<String> values;
    private final List<String> unknown;
    private final String action;

    /**
     * @param values  one entry per value that cannot be read or cannot work (the routes' mistakes are one entry)
     * @param actions what to do about the values, beyond what each reason says
     * @param unknown the names that bind to nothing
     * @param cause   Boot's error for the first value it could not read, if any
     */
    GuardPropertyMistakesException(List<String> values, List<String> actions, List<ConfigurationProperty> unknown,
                                   Throwable cause) {
        super("guard", String.join("; ", values), FIX_VALUES);
        this.values = List.copyOf(values);
        this.unknown = unknown.stream().map(property -> property.getName()
                + (property.getOrigin() == null ? "" : " (" + property.getOrigin() + ")")).toList();
        List<String> steps = new ArrayList<>();
        if (!values.isEmpty()) {
            steps.add(FIX_VALUES);
        }
        actions.stream().distinct().forEach(steps::add);
        unknown.stream().map(GuardPropertyMistakesException::fix).forEach(steps::add);
        this.action = String.join("\n", steps);
        if (cause != null) {
            initCause(cause);
        }
    }

    @Override
    public String getMessage() {
        String description = values.size() == 1 ? values.get(0)
                : values.isEmpty() ? ""
                : values.size() + " Guard property values cannot work:" + values.stream()
                .map(line -> System.lineSeparator() + "  - " + line.replace("\n", "\n    "))
                .collect(Collectors.joining());
        if (unknown.isEmpty()) {
            return description;
        }
        return description + (description.isEmpty() ? "" : "\n\n")
                + "Guard does not know these properties; they would be ignored:\n"
                + unknown.stream().map(name -> "\n    " + name).collect(Collectors.joining());
    }

    @Override
    public String action() {
        return action;
    }

    private static String fix(ConfigurationProperty property) {
        String name = property.getName().toString();
        Set<String> sharedConfigs = Set.of("configs", "base-config");
        for (int i = 0; i < property.getName().getNumberOfElements(); i++) {
            if (sharedConfigs.contains(property.getName().getElement(i, ConfigurationPropertyName.Form.DASHED))) {
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
