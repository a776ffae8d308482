package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.autoconfigure.report.StartupReports;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * {@code guard.rate-limit.redis.database} values that cannot work stop start-up with the property and the value:
 * a negative index, a database other than 0 on Redis Cluster (either client), and any database with the
 * application's own RedissonClient, whose database Guard cannot change. No Redis is needed: each is refused before
 * a connection is made.
 */
class RedisDatabasePropertyTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class));

    private static FailureAnalysis analysis(ApplicationContextRunner runner) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = StartupReports.ofProperties(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("analysis of the start-up failure").isNotNull();
        return analysis[0];
    }

    @Test
    void aNegativeDatabaseIsReportedWithTheOtherBadValuesWhateverTheBackend() {
        FailureAnalysis analysis = analysis(runner.withPropertyValues("guard.rate-limit.backend=local",
                "guard.rate-limit.redis.database=-1", "guard.rate-limit.redis.max-batch=0"));
        assertThat(analysis.getDescription()).startsWith("2 Guard property values cannot work:")
                .contains("guard.rate-limit.redis.database=-1: must not be negative: it is the index of the Redis "
                        + "database (SELECT) that holds Guard's keys")
                .contains("guard.rate-limit.redis.max-batch=0:");
        assertThat(analysis.getAction()).contains("guard.rate-limit.redis.database=1");
    }

    @Test
    void aDatabaseWithTheApplicationsOwnRedissonClientStopsStartUpNamingTheBean() {
        FailureAnalysis analysis = analysis(runner.withBean("appRedisson", RedissonClient.class,
                        () -> mock(RedissonClient.class))
                .withPropertyValues("guard.rate-limit.redis.database=3"));
        assertThat(analysis.getDescription()).contains("guard.rate-limit.redis.database=3: Guard's scripts run on "
                + "the application's RedissonClient bean 'appRedisson', whose database Guard cannot change");
        assertThat(analysis.getAction()).contains("guard.rate-limit.redis.client=spring-data");
    }

    @Test
    void aDatabaseOtherThanZeroOnALettuceClusterFactoryStopsStartUp() {
        FailureAnalysis analysis = analysis(runner.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .withBean(RedisConnectionFactory.class, () -> new LettuceConnectionFactory(
                        new RedisClusterConfiguration(List.of("127.0.0.1:1"))))
                .withPropertyValues("guard.rate-limit.redis.database=3"));
        assertThat(analysis.getDescription()).isEqualTo("guard.rate-limit.redis.database: is 3 but the Redis client "
                + "is configured for Redis Cluster, which has only database 0");
        assertThat(analysis.getAction()).contains("guard.rate-limit.key-prefix");
    }

    @Test
    void aDatabaseOtherThanZeroWithGuardsOwnRedissonClientOnAClusterStopsStartUp() {
        FailureAnalysis analysis = analysis(runner.withPropertyValues("guard.rate-limit.backend=redis",
                "spring.data.redis.cluster.nodes=127.0.0.1:1", "guard.rate-limit.redis.database=5"));
        assertThat(analysis.getDescription()).isEqualTo("guard.rate-limit.redis.database: is 5 but the Redis client "
                + "is configured for Redis Cluster, which has only database 0");
    }

    @Test
    void databaseZeroOnAClusterIsTheClustersOwnAndStartsUp() {
        runner.withClassLoader(new FilteredClassLoader(RedissonClient.class))
                .withBean(RedisConnectionFactory.class, () -> new LettuceConnectionFactory(
                        new RedisClusterConfiguration(List.of("127.0.0.1:1"))))
                .withPropertyValues("guard.rate-limit.redis.database=0", "guard.rate-limit.redis.warm-up-timeout=0")
                .run(context -> assertThat(context).hasNotFailed());
    }
}
