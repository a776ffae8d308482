package io.guard.sample.redis;

import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.mock.env.MockEnvironment;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class EmbeddedRedisInitializerIT {

    private static final Duration PROBE = Duration.ofMillis(500);

    @Test
    void startsAnEmbeddedRedisAndStopsItWithTheContext() {
        GenericApplicationContext context = contextWith("always", null);
        new EmbeddedRedisInitializer().initialize(context);
        context.refresh();

        RedisTarget target = RedisTarget.from(context.getEnvironment());
        assertThat(target.host()).isEqualTo("127.0.0.1");
        assertThat(target.port()).isNotEqualTo(RedisTarget.DEFAULT_PORT);
        assertThat(context.getEnvironment().getProperty("spring.data.redis.url"))
                .isEqualTo("redis://127.0.0.1:" + target.port());
        assertThat(target.answers(PROBE)).as("embedded Redis answers at %s", target).isTrue();

        context.close();
        assertThat(stopsAnswering(target, Duration.ofSeconds(5))).as("embedded Redis stopped at %s", target).isTrue();
    }

    @Test
    void usesTheConfiguredRedisWhenItAnswers() throws IOException {
        try (ServerSocket redisStandIn = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            GenericApplicationContext context = contextWith("auto", redisStandIn.getLocalPort());
            new EmbeddedRedisInitializer().initialize(context);

            assertThat(context.getBeanFactory().containsSingleton(EmbeddedRedisInitializer.BEAN_NAME)).isFalse();
            assertThat(RedisTarget.from(context.getEnvironment()).port()).isEqualTo(redisStandIn.getLocalPort());
        }
    }

    @Test
    void startsOneWhenTheConfiguredRedisDoesNotAnswer() throws IOException {
        int silentPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            silentPort = socket.getLocalPort();
        }
        GenericApplicationContext context = contextWith("auto", silentPort);
        new EmbeddedRedisInitializer().initialize(context);
        context.refresh();
        try {
            RedisTarget target = RedisTarget.from(context.getEnvironment());
            assertThat(target.port()).isNotEqualTo(silentPort);
            assertThat(target.answers(PROBE)).isTrue();
        } finally {
            context.close();
        }
    }

    @Test
    void neverStartsOneWhenToldNot() {
        GenericApplicationContext context = contextWith("never", 1);
        new EmbeddedRedisInitializer().initialize(context);

        assertThat(context.getBeanFactory().containsSingleton(EmbeddedRedisInitializer.BEAN_NAME)).isFalse();
    }

    @Test
    void rejectsAnUnknownModeNamingTheProperty() {
        GenericApplicationContext context = contextWith("sometimes", null);

        assertThatIllegalStateException().isThrownBy(() -> new EmbeddedRedisInitializer().initialize(context))
                .withMessage("sample.redis.embedded must be auto, always or never but was 'sometimes'");
    }

    /** The process is gone when stop returns, but the kernel may take a moment to close its listening socket. */
    private static boolean stopsAnswering(RedisTarget target, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (target.answers(PROBE)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    private static GenericApplicationContext contextWith(String mode, Integer port) {
        MockEnvironment environment = new MockEnvironment().withProperty(EmbeddedRedisInitializer.MODE_PROPERTY, mode)
                .withProperty("spring.data.redis.host", "127.0.0.1");
        if (port != null) {
            environment.setProperty("spring.data.redis.port", port.toString());
        }
        GenericApplicationContext context = new GenericApplicationContext();
        context.setEnvironment(environment);
        return context;
    }
}
