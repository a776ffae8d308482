package io.guard.spring.web;

import io.guard.test.redis.DedicatedRedis;
import io.guard.test.redis.RedisServers;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * A route's refusals other than "over the limit", answered like an annotation's: the backend-failure policies when
 * Redis is gone (503, let through, decided in process), a missing key (400), and shadow mode (never refuses).
 */
class RouteAnswersIT {

    private static final String[] ROUTES = {
            "guard.rate-limit.defaults.rate=2", "guard.rate-limit.defaults.interval=60s",
            "guard.rate-limit.instances.closed.on-backend-failure=fail-closed",
            "guard.rate-limit.instances.open.on-backend-failure=fail-open",
            "guard.rate-limit.instances.local.on-backend-failure=local",
            "guard.rate-limit.instances.watched.shadow=true",
            "guard.rate-limit.routes[0].name=closed", "guard.rate-limit.routes[0].paths[0]=/closed",
            "guard.rate-limit.routes[1].name=open", "guard.rate-limit.routes[1].paths[0]=/open",
            "guard.rate-limit.routes[2].name=local", "guard.rate-limit.routes[2].paths[0]=/local",
            "guard.rate-limit.routes[3].name=keyed", "guard.rate-limit.routes[3].paths[0]=/keyed",
            "guard.rate-limit.routes[3].key=#headers['X-Api-Key']",
            "guard.rate-limit.routes[4].name=watched", "guard.rate-limit.routes[4].paths[0]=/watched"};

    @RestController
    static class Plain {
        @GetMapping({"/closed", "/open", "/local", "/keyed", "/watched"})
        public String answer() {
            return "ok";
        }
    }

    @Test
    void springMvc() throws Exception {
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisMvcContexts.runner(redis.url(), 1000, 5000).withPropertyValues(ROUTES).withBean(Plain.class)
                    .run(context -> {
                        MockMvc mvc = MockMvcBuilders.webAppContextSetup(context)
                                .addFilters(context.getBean(GuardRouteFilter.class)).build();
                        MockHttpServletResponse missingKey = mvc.perform(get("/keyed")).andReturn().getResponse();
                        assertThat(missingKey.getStatus()).isEqualTo(400);
                        assertThat(missingKey.getContentAsString())
                                .contains("urn:problem-type:guard:rate-limit-key-missing")
                                .contains("Rate limit 'keyed' needs a key, but '#headers['X-Api-Key']' is null");
                        for (int i = 0; i < 4; i++) {
                            MockHttpServletResponse shadow = mvc.perform(get("/watched")).andReturn().getResponse();
                            assertThat(shadow.getStatus()).isEqualTo(200);
                            assertThat(shadow.getHeader("RateLimit")).isNull();
                        }
                        assertThat(mvc.perform(get("/closed")).andReturn().getResponse().getStatus()).isEqualTo(200);

                        redis.stop();
                        for (int i = 0; i < 3; i++) {
                            MockHttpServletResponse closed = mvc.perform(get("/closed")).andReturn().getResponse();
                            assertThat(closed.getStatus()).isEqualTo(503);
                            assertThat(closed.getContentAsString())
                                    .contains("urn:problem-type:guard:rate-limit-backend-unavailable");
                            assertThat(mvc.perform(get("/open")).andReturn().getResponse().getStatus())
                                    .isEqualTo(200);
                        }
                        assertThat(mvc.perform(get("/local")).andReturn().getResponse().getStatus()).isEqualTo(200);
                        assertThat(mvc.perform(get("/local")).andReturn().getResponse().getStatus()).isEqualTo(200);
                        assertThat(mvc.perform(get("/local")).andReturn().getResponse().getStatus()).isEqualTo(429);
                    });
        }
    }

    @Test
    void webFlux() {
        try (DedicatedRedis redis = RedisServers.startDedicated()) {
            RedisMvcContexts.webFluxRunner(redis.url(), 1000, 5000)
                    .withPropertyValues(ROUTES).withBean(Plain.class)
                    .run(context -> {
                        WebTestClient client = WebTestClient.bindToApplicationContext(context).build();
                        Exchange missingKey = Exchange.get(client, "/keyed");
                        assertThat(missingKey.status()).isEqualTo(400);
                        assertThat(missingKey.json().path("type").asText())
                                .isEqualTo("urn:problem-type:guard:rate-limit-key-missing");
                        for (int i = 0; i < 4; i++) {
                            Exchange shadow = Exchange.get(client, "/watched");
                            assertThat(shadow.status()).isEqualTo(200);
                            assertThat(shadow.header("RateLimit")).isNull();
                        }
                        assertThat(Exchange.get(client, "/closed").status()).isEqualTo(200);

                        redis.stop();
                        for (int i = 0; i < 3; i++) {
                            Exchange closed = Exchange.get(client, "/closed");
                            assertThat(closed.status()).isEqualTo(503);
                            assertThat(closed.json().path("type").asText())
                                    .isEqualTo("urn:problem-type:guard:rate-limit-backend-unavailable");
                            assertThat(Exchange.get(client, "/open").status()).isEqualTo(200);
                        }
                        assertThat(Exchange.get(client, "/local").status()).isEqualTo(200);
                        assertThat(Exchange.get(client, "/local").status()).isEqualTo(200);
                        assertThat(Exchange.get(client, "/local").status()).isEqualTo(429);
                    });
        }
    }
}
