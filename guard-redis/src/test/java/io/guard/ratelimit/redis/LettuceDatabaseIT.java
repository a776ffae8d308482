package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.BackendFailurePolicy;
import io.guard.ratelimit.MutableClock;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Guard's connections through Spring Data's Lettuce factory in a database of their own
 * ({@code guard.rate-limit.redis.database}): the keys are written there and not in the application's database 0,
 * the factory's credentials and client name come along, and a reset still reaches another instance, pub/sub channels
 * being the same in every database.
 */
@RedisTest
class LettuceDatabaseIT {

    private static final int GUARDS = 3;

    private final RedisEndpoint redis;
    private final MutableClock frozen = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final RateLimitPolicy hourly = new RateLimitPolicy("hourly", Algorithm.TOKEN_BUCKET, 1,
            Duration.ofHours(1), 0, Scope.GLOBAL, TimeSource.CLIENT, BackendFailurePolicy.FAIL_CLOSED);

    LettuceDatabaseIT(RedisEndpoint redis) {
        this.redis = redis;
    }

    /** The application's factory, in database 0 like most applications. */
    private LettuceConnectionFactory factory(RedisStandaloneConfiguration server, LettuceClientConfiguration client) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server, client);
        factory.afterPropertiesSet();
        opened.add(factory::destroy);
        return factory;
    }

    private RedisRateLimiter instance(LettuceConnectionFactory factory, Integer database) {
        RedisRateLimiter limiter = new RedisRateLimiter(LettuceScriptConnection.of(factory, database), frozen,
                redis.keyPrefix(), UUID.randomUUID().toString(), RedisRateLimiter.DEFAULT_REFUSAL_CACHE_SIZE,
                Pipeline.DEFAULT_MAX_BATCH);
        opened.add(limiter);
        return limiter;
    }

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void decisionsWriteTheirKeysInGuardsDatabaseAndNoneInTheApplications() {
        LettuceConnectionFactory app = factory(new RedisStandaloneConfiguration(redis.host(), redis.port()),
                LettuceClientConfiguration.defaultConfiguration());
        RedisRateLimiter guard = instance(app, GUARDS);

        assertThat(guard.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();
        assertThat(guard.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();

        assertThat(redis.keysIn(GUARDS)).singleElement().asString().contains("{hourly:user-1}:tat");
        assertThat(redis.keys()).as("the application's database 0").isEmpty();
    }

    @Test
    void withoutADatabaseGuardWritesInTheFactorysOwnAsBefore() {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.host(), redis.port());
        server.setDatabase(2);
        RedisRateLimiter guard = instance(factory(server, LettuceClientConfiguration.defaultConfiguration()), null);

        assertThat(guard.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();

        assertThat(redis.keysIn(2)).hasSize(1);
        assertThat(redis.keys()).isEmpty();
    }

    /** A user of its own (ACL), so that a connection without the factory's credentials would be refused. */
    @Test
    void guardsConnectionsKeepTheFactorysCredentialsAndClientName() {
        String user = "guard-db-" + UUID.randomUUID();
        String clientName = "orders-" + UUID.randomUUID();
        redis.call("ACL", "SETUSER", user, "on", ">s3cret", "~*", "&*", "+@all");
        opened.add(() -> redis.call("ACL", "DELUSER", user));
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.host(), redis.port());
        server.setUsername(user);
        server.setPassword("s3cret");
        RedisRateLimiter guard = instance(factory(server, LettuceClientConfiguration.builder()
                .clientName(clientName).commandTimeout(Duration.ofSeconds(10)).build()), GUARDS);

        assertThat(guard.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();

        // The pub/sub connection is made beside the script connection and selects its database after its HELLO:
        // look until its handshake is through (both connections seen, neither still in HELLO).
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String clients = (String) redis.call("CLIENT", "LIST");
            assertThat(clients.lines().filter(line -> line.contains(" name=" + clientName + " ")))
                    .hasSize(2)
                    .allSatisfy(line -> assertThat(line).contains(" db=" + GUARDS + " ")
                            .contains(" user=" + user + " "));
        });
        assertThat(redis.keysIn(GUARDS)).hasSize(1);
    }

    @Test
    void aResetInGuardsDatabaseReachesAnotherInstance() throws Exception {
        RedisRateLimiter a = instance(factory(new RedisStandaloneConfiguration(redis.host(), redis.port()),
                LettuceClientConfiguration.defaultConfiguration()), GUARDS);
        RedisRateLimiter b = instance(factory(new RedisStandaloneConfiguration(redis.host(), redis.port()),
                LettuceClientConfiguration.defaultConfiguration()), GUARDS);
        b.listening().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(a.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isFalse();
        assertThat(b.rememberedRefusals()).isEqualTo(1);

        a.reset(hourly, "user-1").toCompletableFuture().get(5, TimeUnit.SECONDS);

        assertThat(redis.keysIn(GUARDS)).isEmpty();
        // b's clock stands still: only the reset message can make it forget the refusal.
        await().atMost(Duration.ofSeconds(10)).until(() -> b.rememberedRefusals() == 0);
        assertThat(b.tryAcquire(hourly, "user-1", 1).allowed()).isTrue();
    }
}
