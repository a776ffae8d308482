package io.guard.spring.test;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.util.ClassUtils;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Spring Boot's auto-configuration classes by simple name, so one test source runs on both Boot lines: Boot 4 moved
 * most of them to new packages ({@code ...webmvc.autoconfigure.WebMvcAutoConfiguration}) and renamed a few
 * ({@code RedisAutoConfiguration} became {@code DataRedisAutoConfiguration}). Names are looked up among the
 * auto-configurations registered on the class path, the list Boot itself reads; a name that is not there fails the
 * test with the name, never silently.
 */
public final class AutoConfigs {

    private static final Map<String, String> BY_SIMPLE_NAME = index();

    private AutoConfigs() {
    }

    /**
     * The auto-configuration class with the given simple name; {@code "A|B"} takes the first of several names that
     * exists (for a class renamed between Boot lines).
     */
    public static Class<?> type(String simpleNames) {
        for (String name : simpleNames.split("\\|")) {
            String className = BY_SIMPLE_NAME.get(name);
            if (className != null) {
                return load(className);
            }
        }
        throw new IllegalArgumentException("No auto-configuration named " + simpleNames + " on the class path");
    }

    /**
     * A new reactive web application context: Boot's {@code AnnotationConfigReactiveWebApplicationContext}, which
     * moved from {@code org.springframework.boot.web.reactive.context} (Boot 3) to
     * {@code org.springframework.boot.web.context.reactive} (Boot 4).
     */
    public static AnnotationConfigApplicationContext reactiveWebContext() {
        for (String name : new String[] {
                "org.springframework.boot.web.context.reactive.AnnotationConfigReactiveWebApplicationContext",
                "org.springframework.boot.web.reactive.context.AnnotationConfigReactiveWebApplicationContext"}) {
            if (ClassUtils.isPresent(name, AutoConfigs.class.getClassLoader())) {
                return (AnnotationConfigApplicationContext) BeanUtils.instantiateClass(load(name));
            }
        }
        throw new IllegalStateException("No AnnotationConfigReactiveWebApplicationContext on the class path");
    }

    static Class<?> load(String className) {
        try {
            return ClassUtils.forName(className, AutoConfigs.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(className + " cannot be loaded", e);
        }
    }

    /** Several auto-configuration classes by simple name; see {@link #type(String)}. */
    public static Class<?>[] types(String... simpleNames) {
        return Arrays.stream(simpleNames).map(AutoConfigs::type).toArray(Class<?>[]::new);
    }

    private static Map<String, String> index() {
        Map<String, String> index = new HashMap<>();
        for (String className : ImportCandidates.load(AutoConfiguration.class, AutoConfigs.class.getClassLoader())) {
            index.putIfAbsent(className.substring(className.lastIndexOf('.') + 1), className);
        }
        return index;
    }
}
