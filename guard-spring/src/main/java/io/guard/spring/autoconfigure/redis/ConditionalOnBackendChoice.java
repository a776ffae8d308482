package io.guard.spring.autoconfigure.redis;

import org.springframework.context.annotation.Conditional;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Matches when {@link BackendChoice} picks one of {@link #value()}; the one condition of the backend's wiring. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Conditional(OnBackendChoiceCondition.class)
@interface ConditionalOnBackendChoice {

    BackendChoice.RedisClient[] value();
}
