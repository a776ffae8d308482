package io.guard.test.redis;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a test class that needs a real Redis: its constructor, lifecycle and test methods may declare a
 * {@link RedisEndpoint} parameter. Shorthand for {@code @ExtendWith(RedisExtension.class)}, so that a reader sees
 * at the top of the class that the test talks to a server.
 */
@Target({ElementType.TYPE, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(RedisExtension.class)
public @interface RedisTest {
}
