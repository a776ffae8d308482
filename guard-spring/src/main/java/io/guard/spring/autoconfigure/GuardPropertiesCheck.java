package io.guard.spring.autoconfigure;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.Environment;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks {@code guard.*} the moment it is bound, before any breaker or limiter is built from it, and stops start-up
 * once with every bad value (see {@link PropertyMistakes}): each named with the value as written and where it was
 * written, and what is allowed.
 */
final class GuardPropertiesCheck implements BeanPostProcessor {

    private final Environment environment;
    /**
     * The instances checked already: Spring Cloud's rebinding on a refresh initializes the bean again, and
     * {@link GuardConfigurationRefresh} checks the refreshed values itself.
     */
    private final Set<Object> checked = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    GuardPropertiesCheck(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof GuardProperties properties && checked.add(bean)) {
            List<String> mistakes = describe(PropertyMistakes.in(properties), environment);
            if (!mistakes.isEmpty()) {
                throw new GuardPropertyValuesException(mistakes);
            }
        }
        return bean;
    }

    /**
     * One line per mistake, {@code guard.rate-limit.instances.search.rate=0: rate must be ... [from class path
     * resource ...]}: the value as the application wrote it (a duration as {@code -1s}, not {@code PT-1S}) and where,
     * when it can be found in {@code environment}. Also how a configuration refresh reports the values it refuses.
     */
    static List<String> describe(List<PropertyMistakes.Mistake> mistakes, Environment environment) {
        return mistakes.stream().map(mistake -> describe(mistake, environment)).toList();
    }

    private static String describe(PropertyMistakes.Mistake mistake, Environment environment) {
        if (mistake.value() == null) {
            return mistake.property() + ": " + mistake.reason();
        }
        ConfigurationProperty written = written(mistake.property(), environment);
        Object value = written != null ? written.getValue() : mistake.value();
        String origin = written != null && written.getOrigin() != null ? " [" + written.getOrigin() + "]" : "";
        return mistake.property() + "=" + value + ": " + mistake.reason() + origin;
    }

    private static ConfigurationProperty written(String property, Environment environment) {
        if (!ConfigurationPropertyName.isValid(property)) {
            return null;
        }
        ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty found = source.getConfigurationProperty(name);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Every bad {@code guard.*} value of one start-up. */
    static final class GuardPropertyValuesException extends GuardPropertiesException {

        private static final long serialVersionUID = 1L;

        private final List<String> mistakes;

        GuardPropertyValuesException(List<String> mistakes) {
            super("guard", String.join("; ", mistakes), "Fix each value above; the reason after it says what is allowed.");
            this.mistakes = List.copyOf(mistakes);
        }

        @Override
        public String getMessage() {
            if (mistakes.size() == 1) {
                return mistakes.get(0);
            }
            return mistakes.size() + " Guard property values cannot work:" + mistakes.stream()
                    .map(line -> System.lineSeparator() + "  - " + line).collect(Collectors.joining());
        }
    }
}
