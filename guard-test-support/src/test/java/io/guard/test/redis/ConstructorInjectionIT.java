package io.guard.test.redis;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@RedisTest
class ConstructorInjectionIT {

    private final RedisEndpoint fromConstructor;
    private RedisEndpoint fromBeforeEach;

    ConstructorInjectionIT(RedisEndpoint redis) {
        this.fromConstructor = redis;
    }

    @BeforeEach
    void remember(RedisEndpoint redis) {
        fromBeforeEach = redis;
    }

    @Test
    void constructorBeforeEachAndTestShareOnePrefix(RedisEndpoint redis) {
        assertThat(fromConstructor).isEqualTo(fromBeforeEach).isEqualTo(redis);
    }
}
