package io.guard.ratelimit.redis;

import io.lettuce.core.RedisURI;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisSocketConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The address of a standalone Redis as Spring Data's Lettuce factory connects to it (host and port or socket,
 * credentials, TLS, command timeout, client name), but with the database Guard keeps its keys in
 * ({@code guard.rate-limit.redis.database}). The factory's client holds its own address privately, so the same
 * settings are read back from the factory's configuration, as the factory itself applies them when it makes the
 * client.
 */
final class LettuceDatabaseUri {

    private LettuceDatabaseUri() {
    }

    static RedisURI of(LettuceConnectionFactory factory, int database) {
        LettuceClientConfiguration client = factory.getClientConfiguration();
        RedisSocketConfiguration socket = factory.getSocketConfiguration();
        RedisConfiguration server = socket != null ? socket : factory.getStandaloneConfiguration();
        RedisURI.Builder builder = socket != null ? RedisURI.Builder.socket(socket.getSocket())
                : RedisURI.Builder.redis(factory.getHostName(), factory.getPort());
        builder.withDatabase(database)
                .withSsl(client.isUseSsl())
                .withVerifyPeer(client.getVerifyMode())
                .withStartTls(client.isStartTls())
                .withTimeout(client.getCommandTimeout());
        client.getClientName().ifPresent(builder::withClientName);
        if (client.getRedisCredentialsProviderFactory().isPresent()) {
            builder.withAuthentication(client.getRedisCredentialsProviderFactory().get()
                    .createCredentialsProvider(server));
        } else if (server instanceof RedisConfiguration.WithAuthentication credentials) {
            RedisPassword password = credentials.getPassword();
            if (password != null && password.isPresent()) {
                if (credentials.getUsername() != null) {
                    builder.withAuthentication(credentials.getUsername(), password.get());
                } else {
                    builder.withPassword(password.get());
                }
            }
        }
        return builder.build();
    }
}
