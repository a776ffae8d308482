package io.guard.test.redis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DedicatedRedisIT {

    @Test
    void stopsAndRestartsEmptyOnTheSamePort() {
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisEndpoint endpoint = redis.endpoint("dedicated:");
            endpoint.call("SET", "dedicated:k", "v");
            String url = redis.url();

            redis.stop();
            assertThat(redis.isRunning()).isFalse();
            assertThatThrownBy(() -> endpoint.call("PING")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(Integer.toString(redis.port()));

            redis.start();
            assertThat(redis.url()).isEqualTo(url).isEqualTo("redis://127.0.0.1:" + redis.port());
            assertThat(endpoint.call("PING")).isEqualTo("PONG");
            assertThat(endpoint.call("GET", "dedicated:k")).isNull();
        }
    }

    @Test
    void passesExtraArgumentsToTheServer() {
        try (DedicatedRedis redis = RedisServers.startDedicated("--maxmemory", "7mb")) {
            assertThat(redis.endpoint("x:").call("CONFIG", "GET", "maxmemory"))
                    .isEqualTo(java.util.List.of("maxmemory", Long.toString(7L * 1024 * 1024)));
        }
    }

    @Test
    void closingStopsTheServerForGood() {
        DedicatedRedis redis = RedisServers.startDedicated();
        redis.close();

        assertThat(redis.isRunning()).isFalse();
        assertThat(Resp.ping(redis.host(), redis.port())).isFalse();
    }

    @Test
    void findsARunnableBinaryIncludingTheEmbeddedOne() {
        RedisBinary located = RedisServers.binary();
        RedisBinary embedded = RedisBinary.embedded();

        assertThat(located.version()).contains("Redis server v=");
        assertThat(embedded.source()).isEqualTo(RedisSource.EMBEDDED_BINARY);
        assertThat(embedded.version()).contains("Redis server v=");
    }

    @Test
    void theEmbeddedBinaryServesHere() {
        RedisProcess process = RedisProcess.startOnFreePort(RedisBinary.embedded(), java.util.List.of());
        try {
            assertThat(Resp.call(process.host(), process.port(), null, "PING")).isEqualTo("PONG");
        } finally {
            process.stop();
        }
        assertThat(process.isRunning()).isFalse();
    }
}
