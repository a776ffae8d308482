package io.guard.spring.gateway;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A gateway application as users write one (Spring Cloud Gateway server-webflux and Guard from their starters, routes
 * in properties), started on a random loopback port, and the HTTP client that talks to it.
 */
final class Gateway implements AutoCloseable {

    /** The prefix of the gateway's routes on either line (4.3 and 5.0 both read it). */
    static final String ROUTES = GatewayProperties.PREFIX + ".routes";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final ConfigurableApplicationContext context;

    private Gateway(ConfigurableApplicationContext context) {
        this.context = context;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        /** The client's key: the X-Api-Key header (SCG refuses a request without one: deny-empty-key). */
        @Bean
        KeyResolver apiKeyResolver() {
            return exchange -> Mono.justOrEmpty(exchange.getRequest().getHeaders().getFirst("X-Api-Key"));
        }
    }

    static Gateway start(String... properties) {
        return start(new Class<?>[0], properties);
    }

    /** With {@code configurations} (e.g. a {@code RouteLocator} bean) next to the application's own beans. */
    static Gateway start(Class<?>[] configurations, String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
                "management.endpoints.web.exposure.include=guard,metrics", "spring.main.banner-mode=off",
                "guard.rate-limit.redis.warm-up-timeout=0"));
        all.addAll(List.of(properties));
        return new Gateway(new SpringApplicationBuilder(Application.class).sources(configurations)
                .web(WebApplicationType.REACTIVE)
                .properties(all.toArray(String[]::new)).run());
    }

    /** A route {@code id} to {@code backend} for {@code path}, keyed by X-Api-Key, limited by Guard with {@code args}. */
    static List<String> route(int index, String id, String path, Backend backend, String... args) {
        String prefix = ROUTES + "[" + index + "].";
        List<String> route = new ArrayList<>(List.of(prefix + "id=" + id, prefix + "uri=" + backend.uri(),
                prefix + "predicates[0]=Path=" + path, prefix + "filters[0].name=RequestRateLimiter",
                prefix + "filters[0].args.key-resolver=#{@apiKeyResolver}"));
        for (String arg : args) {
            route.add(prefix + "filters[0].args." + arg);
        }
        return route;
    }

    ConfigurableApplicationContext context() {
        return context;
    }

    int port() {
        return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    HttpResponse<String> get(String path, String apiKey) {
        var request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20));
        if (apiKey != null) {
            request.header("X-Api-Key", apiKey);
        }
        return send(request);
    }

    /** A JSON POST, as an operator sends to the actuator. */
    HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port() + path);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
