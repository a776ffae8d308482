package io.guard.spring.test;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Adds Guard to a test slice ({@code @WebMvcTest}, {@code @WebFluxTest}, ...), which otherwise leaves Guard's
 * auto-configuration out, so {@code @RateLimit} and {@code @CircuitBreaker} would do nothing in the test. The slice
 * has no Redis client, so limits are counted in process (set {@code guard.rate-limit.backend=local} to silence the
 * per-instance warning); {@link GuardQuotas} resets and inspects them between test cases. The auto-configurations
 * it imports are listed in {@code META-INF/spring/io.guard.spring.test.AutoConfigureGuard.imports}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureGuard {
}
