package io.guard.spring.breaker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.spring.actuate.GuardEndpointAutoConfiguration;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fleet-wide writes behind Spring Security, as an application secures its actuator: a request without credentials
 * (401) or from a user without the operator role (403) is refused before Guard sees it, and nothing reaches Redis or
 * the other instance; an operator's command reaches the other instance and names the operator. Boot 4 line only:
 * Spring Security's web jars on guard-spring-boot3-starter's test class path would secure every application it
 * re-runs (Boot 3.5 configures Spring Security by itself), so that module excludes this test.
 */
@RedisTest
class FleetWriteSecurityIT {

    private static RedisEndpoint redis;
    private static ConfigurableApplicationContext web;
    private static AnnotationConfigApplicationContext other;
    private static HttpClient http;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"TomcatServletWebServerAutoConfiguration|ServletWebServerFactoryAutoConfiguration",
            "JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration",
            "DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2",
            "EndpointAutoConfiguration", "WebEndpointAutoConfiguration", "ManagementContextAutoConfiguration",
            "ServletManagementContextAutoConfiguration"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class, GuardEndpointAutoConfiguration.class})
    @EnableWebSecurity
    static class SecuredApp {

        @Bean
        SecurityFilterChain actuator(HttpSecurity security) throws Exception {
            return security.authorizeHttpRequests(requests -> requests.anyRequest().hasRole("OPERATOR"))
                    .httpBasic(Customizer.withDefaults())
                    .csrf(csrf -> csrf.disable())
                    .build();
        }

        @Bean
        UserDetailsService users() {
            return new InMemoryUserDetailsManager(
                    User.withUsername("alice").password("{noop}secret").roles("OPERATOR").build(),
                    User.withUsername("bob").password("{noop}secret").roles("VIEWER").build());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    static class OtherInstance {
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        web = new SpringApplicationBuilder(SecuredApp.class).web(WebApplicationType.SERVLET).properties(
                "server.address=127.0.0.1", "server.port=0", "spring.data.redis.url=" + redis.url(),
                "guard.rate-limit.backend=redis", "guard.rate-limit.key-prefix=" + redis.keyPrefix(),
                "guard.circuit-breaker.fleet.enabled=true", "guard.circuit-breaker.fleet.instance-id=web",
                "guard.circuit-breaker.fleet.poll-interval=1s",
                "management.endpoints.web.exposure.include=guard",
                "management.endpoint.guard.access=unrestricted").run();
        other = RedisBacked.start(new AnnotationConfigApplicationContext(), redis, c -> c.register(OtherInstance.class),
                "guard.circuit-breaker.fleet.enabled=true", "guard.circuit-breaker.fleet.instance-id=other",
                "guard.circuit-breaker.fleet.poll-interval=1s");
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        other.close();
        web.close();
    }

    @Test
    void aFleetWideWriteWithoutCredentialsOrTheRoleIsRefusedAndSendsNothing() throws Exception {
        breaker(web, "payments");
        breaker(other, "payments");

        assertThat(forceOpen("payments", null).statusCode()).isEqualTo(401);
        assertThat(forceOpen("payments", "bob").statusCode()).isEqualTo(403);

        assertThat(redis.call("HEXISTS", redis.keyPrefix() + "{guard-breakers}", "payments")).isEqualTo(0L);
        other.getBean(FleetBreakers.class).refresh();
        assertThat(other.getBean(FleetBreakers.class).commandOf("payments")).isEmpty();
        assertThat(state(web, "payments")).isEqualTo(State.CLOSED);
        assertThat(state(other, "payments")).isEqualTo(State.CLOSED);
    }

    @Test
    void anOperatorsFleetWideWriteReachesTheOtherInstanceAndNamesTheOperator() throws Exception {
        breaker(web, "ledger");
        breaker(other, "ledger");

        HttpResponse<String> answer = forceOpen("ledger", "alice");

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode body = new ObjectMapper().readTree(answer.body());
        assertThat(body.path("state").asText()).isEqualTo("FORCED_OPEN");
        assertThat(body.path("fleet").path("instance").asText()).isEqualTo("web");
        assertThat(body.path("fleet").path("command").path("by").asText()).isEqualTo("alice");
        await().atMost(Duration.ofSeconds(3)).until(() -> state(other, "ledger") == State.FORCED_OPEN);
        assertThat(other.getBean(FleetBreakers.class).commandOf("ledger").orElseThrow().by()).isEqualTo("alice");
    }

    private static HttpResponse<String> forceOpen(String breaker, String user) throws IOException,
            InterruptedException {
        int port = web.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/actuator/guard/" + breaker))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"state\":\"FORCED_OPEN\",\"scope\":\"fleet\"}"));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8)));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void breaker(ConfigurableApplicationContext instance, String name) {
        instance.getBean(CircuitBreakerRegistry.class).circuitBreaker(name);
    }

    private static State state(ConfigurableApplicationContext instance, String name) {
        return instance.getBean(CircuitBreakerRegistry.class).circuitBreaker(name).state();
    }
}
