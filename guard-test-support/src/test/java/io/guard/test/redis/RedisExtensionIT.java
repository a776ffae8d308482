package io.guard.test.redis;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@RedisTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisExtensionIT {

    private final List<String> prefixesSeen = new ArrayList<>();
    private RedisEndpoint beforeEachEndpoint;

    @BeforeEach
    void remember(RedisEndpoint endpoint) {
        beforeEachEndpoint = endpoint;
    }

    @Test
    void providesAServerThatAnswers(RedisEndpoint redis) {
        assertThat(redis.call("PING")).isEqualTo("PONG");
        assertThat(redis.url()).startsWith("redis://");
        if (redis.source() != RedisSource.ENVIRONMENT) {
            assertThat(redis.url()).isEqualTo("redis://" + redis.host() + ":" + redis.port());
            assertThat(redis.port()).isNotEqualTo(6379);
        }
        prefixesSeen.add(redis.keyPrefix());
    }

    @Test
    void givesBeforeEachAndTheTestTheSamePrefix(RedisEndpoint redis) {
        assertThat(beforeEachEndpoint).isEqualTo(redis);
        prefixesSeen.add(redis.keyPrefix());
    }

    @Test
    void listsOnlyTheKeysUnderItsOwnPrefix(RedisEndpoint redis) {
        redis.call("SET", redis.keyPrefix() + "a", "1");
        redis.call("SET", redis.keyPrefix() + "b*", "2");
        redis.call("SET", "guard-test-other:" + redis.keyPrefix(), "3");
        try {
            assertThat(redis.keys()).containsExactly(redis.keyPrefix() + "a", redis.keyPrefix() + "b*");
        } finally {
            redis.call("DEL", redis.keyPrefix() + "a", redis.keyPrefix() + "b*", "guard-test-other:" + redis.keyPrefix());
        }
        prefixesSeen.add(redis.keyPrefix());
    }

    @AfterAll
    void everyTestHadItsOwnPrefix() {
        assertThat(prefixesSeen).hasSize(3).doesNotHaveDuplicates().allMatch(p -> p.endsWith(":"));
    }
}
