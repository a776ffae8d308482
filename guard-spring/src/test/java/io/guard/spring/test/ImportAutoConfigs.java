package io.guard.spring.test;

import org.springframework.context.annotation.Import;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@code @ImportAutoConfiguration} by simple class name (see {@link AutoConfigs}), for test contexts that must run
 * on both Spring Boot lines. The classes are imported in Boot's auto-configuration order.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Import(AutoConfigsImportSelector.class)
public @interface ImportAutoConfigs {

    /** Simple names of Boot's auto-configurations; {@code "A|B"} takes the first that exists. */
    String[] value() default {};

    /** Auto-configurations named by class, for those that exist under one name on both lines. */
    Class<?>[] classes() default {};
}
