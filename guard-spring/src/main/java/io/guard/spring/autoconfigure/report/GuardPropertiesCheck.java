package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardProperties;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.IgnoreTopLevelConverterNotFoundBindHandler;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one check of {@code guard.*}: runs just before Spring Boot binds {@link GuardProperties}, reads the
 * environment the way Boot's binder will, and stops start-up once with every mistake it finds, so that three typos
 * cost one restart and not three: names that bind to nothing (a misspelled property or section, Resilience4j's
 * {@code configs}), values that cannot be read as their type ({@code timeout=250 millis}), values that cannot
 * work (see {@link PropertyMistakes}) and values that cannot work with the beans the application defines, the routes
 * among them (see {@link WiringMistakes}). Each is named with its value and, where it can be found, where it was
 * written, and the report says what to do.
 *
 * <p>Internal: public for the auto-configuration (the bean) and the configuration refresh (the same report, logged).
 */
public final class GuardPropertiesCheck implements BeanPostProcessor, PriorityOrdered, BeanFactoryAware {

    private final Environment environment;
    /** The bean definitions the values must work with (see {@link WiringMistakes}); null outside a bean factory. */
    private ConfigurableListableBeanFactory beans;
    /**
     * The instances checked already: Spring Cloud's rebinding on a refresh initializes the bean again, and
     * {@code GuardConfigurationRefresh} checks the refreshed values itself.
     */
    private final Set<Object> checked = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    public GuardPropertiesCheck(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (beanFactory instanceof ConfigurableListableBeanFactory listable) {
            this.beans = listable;
        }
    }

    /** Before Boot's own binding post-processor, so that its first error cannot hide the others. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof GuardProperties && checked.add(bean)) {
            GuardPropertyMistakesException mistakes = check(environment, beans);
            if (mistakes != null) {
                throw mistakes;
            }
        }
        return bean;
    }

    /**
     * Every mistake under {@code guard.*} in {@code environment}, with what {@code beans} defines (may be null: then
     * the values alone), or null when there is none.
     */
    static GuardPropertyMistakesException check(Environment environment, ConfigurableListableBeanFactory beans) {
        Binder binder = new Binder(ConfigurationPropertySources.get(environment),
                new PropertySourcesPlaceholdersResolver(environment));
        Collecting handler = new Collecting();
        GuardProperties scratch = new GuardProperties();
        binder.bind("guard", Bindable.ofInstance(scratch), handler);
        List<String> values = new ArrayList<>();
        handler.unreadable.forEach((name, type) ->
                values.add(name + "=" + writtenValue(name, environment) + ": cannot be read as "
                        + type.getSimpleName() + writtenOrigin(name, environment)));
        List<PropertyMistakes.Mistake> mistakes = new ArrayList<>(PropertyMistakes.in(scratch));
        if (beans != null) {
            mistakes.addAll(WiringMistakes.in(scratch, beans, property -> writtenOrigin(property, environment)));
        }
        values.addAll(describe(mistakes, environment));
        List<ConfigurationProperty> unknown = handler.unbound.stream()
                .filter(property -> !handler.unreadable.containsKey(property.getName().toString()))
                .toList();
        if (values.isEmpty() && unknown.isEmpty()) {
            return null;
        }
        BindException firstUnreadable = handler.unreadable.entrySet().stream().findFirst()
                .map(entry -> bindError(binder, entry.getKey(), entry.getValue())).orElse(null);
        List<String> actions = mistakes.stream().map(PropertyMistakes.Mistake::action).filter(Objects::nonNull)
                .toList();
        return new GuardPropertyMistakesException(values, actions, unknown, firstUnreadable);
    }

    /** Boot's own error for a value that cannot be read: what the application would have seen without this check. */
    private static BindException bindError(Binder binder, String name, Class<?> type) {
        try {
            binder.bind(name, Bindable.of(type));
            return null;
        } catch (BindException e) {
            return e;
        }
    }

    /**
     * One line per mistake, {@code guard.rate-limit.instances.search.rate=0: rate must be ... [from class path
     * resource ...]}: the value as the application wrote it (a duration as {@code -1s}, not {@code PT-1S}) and where,
     * when it can be found in {@code environment}. Also how a configuration refresh reports the values it refuses.
     */
    public static List<String> describe(List<PropertyMistakes.Mistake> mistakes, Environment environment) {
        return mistakes.stream().map(mistake -> describe(mistake, environment)).toList();
    }

    private static String describe(PropertyMistakes.Mistake mistake, Environment environment) {
        if (mistake.value() == null) {
            return mistake.property() + ": " + mistake.reason();
        }
        ConfigurationProperty written = written(mistake.property(), environment);
        Object value = written != null ? written.getValue() : mistake.value();
        return mistake.property() + "=" + value + ": " + mistake.reason() + writtenOrigin(mistake.property(),
                environment);
    }

    private static Object writtenValue(String property, Environment environment) {
        ConfigurationProperty written = written(property, environment);
        return written != null ? written.getValue() : "";
    }

    static String writtenOrigin(String property, Environment environment) {
        ConfigurationProperty written = written(property, environment);
        return written != null && written.getOrigin() != null ? " [" + written.getOrigin() + "]" : "";
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

    /**
     * Boot's handler for {@code ignoreUnknownFields = false} (the names that bind to nothing, environment variables
     * and system properties excepted), made to go on past a value it cannot read instead of stopping there.
     */
    private static final class Collecting extends AbstractBindHandler {

        final Map<String, Class<?>> unreadable = new LinkedHashMap<>();
        final Set<ConfigurationProperty> unbound = new TreeSet<>();

        Collecting() {
            super(new NoUnboundElementsBindHandler(new IgnoreTopLevelConverterNotFoundBindHandler(),
                    new UnboundElementsSourceFilter()));
        }

        @Override
        public Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
                                Exception error) throws Exception {
            try {
                return super.onFailure(name, target, context, error);
            } catch (Exception e) {
                unreadable.putIfAbsent(name.toString(), target.getType().resolve(Object.class));
                return null;
            }
        }

        @Override
        public void onFinish(ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result)
                throws Exception {
            try {
                super.onFinish(name, target, context, result);
            } catch (UnboundConfigurationPropertiesException e) {
                unbound.addAll(e.getUnboundProperties());
            }
        }
    }
}
