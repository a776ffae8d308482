package io.guard.spring.test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.core.type.AnnotationMetadata;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Resolves {@link ImportAutoConfigs} and imports the classes sorted as Boot sorts auto-configurations. */
class AutoConfigsImportSelector implements DeferredImportSelector {

    @Override
    public String[] selectImports(AnnotationMetadata metadata) {
        Map<String, Object> attributes = metadata.getAnnotationAttributes(ImportAutoConfigs.class.getName(), true);
        List<Class<?>> types = new ArrayList<>();
        for (String name : (String[]) attributes.get("value")) {
            types.add(AutoConfigs.type(name));
        }
        for (String className : (String[]) attributes.get("classes")) {
            types.add(AutoConfigs.load(className));
        }
        Class<?>[] sorted = Configurations.getClasses(AutoConfigurations.of(types.toArray(Class<?>[]::new)));
        return Arrays.stream(sorted).map(Class::getName).toArray(String[]::new);
    }
}
