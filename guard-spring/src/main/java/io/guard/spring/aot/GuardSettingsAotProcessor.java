package io.guard.spring.aot;

import io.guard.spring.autoconfigure.BreakerProperties;
import io.guard.spring.autoconfigure.CircuitBreakerProperties;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * What Guard learns from the application's configuration while Spring AOT processes it: the values of the
 * {@link BuildTimeSettings} (written next to the generated code, for {@link BuildTimeSettingsCheck}), and the exception
 * classes that {@code record-exceptions} and {@code ignore-exceptions} name, which the binder loads by name at start-up
 * and a native image therefore has to be told about. Classes that annotations name are class literals and need no
 * hint.
 */
class GuardSettingsAotProcessor implements BeanFactoryInitializationAotProcessor {

    @Override
    public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
        if (!beanFactory.containsBean(ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME)) {
            return null;
        }
        Environment environment = beanFactory.getBean(ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME,
                Environment.class);
        String settings = text(BuildTimeSettings.record(environment));
        Set<Class<?>> exceptions = namedExceptions(environment);
        return (generationContext, code) -> {
            generationContext.getGeneratedFiles().addResourceFile(BuildTimeSettings.RESOURCE, settings);
            RuntimeHints hints = generationContext.getRuntimeHints();
            hints.resources().registerPattern(BuildTimeSettings.RESOURCE);
            exceptions.forEach(hints.reflection()::registerType);
        };
    }

    /** Every class the breakers' properties name, defaults and instances alike. */
    static Set<Class<?>> namedExceptions(Environment environment) {
        Set<Class<?>> named = new LinkedHashSet<>();
        Binder.get(environment).bind("guard.circuit-breaker", Bindable.of(CircuitBreakerProperties.class))
                .ifBound(breakers -> {
                    add(named, breakers.getDefaults());
                    breakers.getInstances().values().forEach(instance -> add(named, instance));
                });
        return named;
    }

    private static void add(Set<Class<?>> named, BreakerProperties breaker) {
        if (breaker != null) {
            // null where the block does not set the list (it then comes from the defaults)
            Optional.ofNullable(breaker.getRecordExceptions()).ifPresent(named::addAll);
            Optional.ofNullable(breaker.getIgnoreExceptions()).ifPresent(named::addAll);
        }
    }

    private static String text(Properties values) {
        StringWriter out = new StringWriter();
        try {
            values.store(out, "guard.* settings fixed when Spring AOT processed this application");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
