package io.guard.spring.actuate;

import org.springframework.test.context.TestPropertySource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@link GuardActuatorTest} as an operator configures it: write access to {@code guard} granted, and the breaker
 * {@code strict} failing health while open. Classes carrying it share a second running server.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@GuardActuatorTest
@TestPropertySource(properties = {
        "management.endpoint.guard.access=unrestricted",
        "guard.circuit-breaker.instances.strict.health-fails-when-open=true",
})
@interface GuardOperatorTest {
}
