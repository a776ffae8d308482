package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.redis.BackendChoice.RedisClient;
import io.guard.spring.autoconfigure.RateLimitProperties.Backend;
import io.guard.spring.autoconfigure.RateLimitRedisProperties.Client;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The backend decision as plain code: every combination of the two properties and the two client beans. */
class BackendChoiceTest {

    @ParameterizedTest(name = "backend={0} client={1} redisson={2} lettuce={3} -> {4}")
    @CsvSource({
            // backend=local wins over any client
            "LOCAL, AUTO,        true,  true,  NONE",
            "LOCAL, REDISSON,    true,  false, NONE",
            // auto: Redisson before Spring Data, else in process
            "AUTO,  AUTO,        true,  true,  REDISSON",
            "AUTO,  AUTO,        false, true,  SPRING_DATA_LETTUCE",
            "AUTO,  AUTO,        false, false, NONE",
            "REDIS, AUTO,        true,  false, REDISSON",
            "REDIS, AUTO,        false, false, NONE",
            // the client property restricts which bean counts
            "AUTO,  SPRING_DATA, true,  true,  SPRING_DATA_LETTUCE",
            "AUTO,  SPRING_DATA, true,  false, NONE",
            "AUTO,  REDISSON,    true,  true,  REDISSON",
            "AUTO,  REDISSON,    false, true,  NONE",
            "REDIS, SPRING_DATA, false, true,  SPRING_DATA_LETTUCE",
    })
    void picksOneBackend(Backend backend, Client client, boolean redisson, boolean lettuce, RedisClient expected) {
        BackendChoice choice = BackendChoice.decide(backend, client, redisson, lettuce);

        assertThat(choice.client()).isEqualTo(expected);
        assertThat(choice.redis()).isEqualTo(expected != RedisClient.NONE);
        assertThat(choice.reason()).isNotBlank();
    }
}
