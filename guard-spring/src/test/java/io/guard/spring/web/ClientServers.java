package io.guard.spring.web;

import io.guard.test.redis.RedisEndpoint;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.netty.http.client.HttpClient;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Real servers on 127.0.0.1 and clients that connect from other loopback addresses (127.0.0.2, ...), so that tests
 * of {@code #clientIp} see the address a server really reads from the connection, as in production.
 */
final class ClientServers {

    private ClientServers() {
    }

    /** Starts {@code app} on a free port of 127.0.0.1, its limits in the test's Redis under its own key prefix. */
    static ConfigurableApplicationContext start(Class<?> app, WebApplicationType type, RedisEndpoint redis,
                                                String keyPrefix, String... properties) {
        List<String> all = new ArrayList<>(List.of("server.address=127.0.0.1", "server.port=0",
                "spring.data.redis.url=" + redis.url(), "guard.rate-limit.backend=redis",
                "guard.rate-limit.key-prefix=" + redis.keyPrefix() + keyPrefix));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(app).web(type).properties(all.toArray(String[]::new)).run();
    }

    /** A client of {@code server} whose connections come from {@code localAddress}. */
    static WebTestClient client(ConfigurableApplicationContext server, String localAddress) {
        int port = server.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        HttpClient http = HttpClient.create().bindAddress(() -> new InetSocketAddress(localAddress, 0));
        return WebTestClient.bindToServer(new ReactorClientHttpConnector(http))
                .baseUrl("http://127.0.0.1:" + port).build();
    }

    /** The status of a GET with the given header fields ({@code name, value, name, value, ...}). */
    static int get(WebTestClient client, String uri, String... headers) {
        return client.get().uri(uri).headers(fields -> {
                    for (int i = 0; i < headers.length; i += 2) {
                        fields.add(headers[i], headers[i + 1]);
                    }
                }).exchange().expectBody(String.class).returnResult().getStatus().value();
    }
}
