package io.guard.spring.web;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.WebApplicationContext;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Only limits that decide the HTTP request appear in its RateLimit header fields, unless configured otherwise. */
class HeaderScopeTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                    AutoConfigs.type("JacksonAutoConfiguration"),
                    AutoConfigs.type("HttpMessageConvertersAutoConfiguration"),
                    AutoConfigs.type("DispatcherServletAutoConfiguration"),
                    AutoConfigs.type("WebMvcAutoConfiguration"), GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local")
            .withBean(SmsGateway.class)
            .withBean(SignupController.class);

    /** An outbound quota: the provider's, not the client's business. */
    static class SmsGateway {
        @RateLimit(name = "sms-provider", rate = 100, interval = "60s")
        public void send(String text) {
        }
    }

    @RestController
    static class SignupController {
        private final SmsGateway sms;

        SignupController(SmsGateway sms) {
            this.sms = sms;
        }

        @PostMapping("/signup")
        public String signup() {
            sms.send("welcome");
            return "ok";
        }

        @PostMapping("/login")
        @RateLimit(name = "login", rate = 10, interval = "60s")
        public String login() {
            sms.send("code");
            return "ok";
        }
    }

    private static MockMvc mvc(WebApplicationContext context) {
        return MockMvcBuilders.webAppContextSetup(context).build();
    }

    @Test
    void aServiceLimitStaysOutOfTheHeaders() {
        runner.run(context -> mvc(context).perform(post("/signup"))
                .andExpect(status().isOk())
                .andExpect(header().doesNotExist("RateLimit-Policy"))
                .andExpect(header().doesNotExist("RateLimit")));
    }

    @Test
    void onlyTheHandlersOwnLimitIsPublished() {
        runner.run(context -> mvc(context).perform(post("/login"))
                .andExpect(status().isOk())
                .andExpect(header().string("RateLimit-Policy", "\"login\";q=10;w=60")));
    }

    @Test
    void aServiceLimitCanBePublishedByConfiguration() {
        runner.withPropertyValues("guard.rate-limit.instances.sms-provider.http-headers=true")
                .run(context -> mvc(context).perform(post("/login"))
                        .andExpect(status().isOk())
                        .andExpect(header().string("RateLimit-Policy",
                                "\"login\";q=10;w=60, \"sms-provider\";q=100;w=60")));
    }

    @Test
    void aHandlerLimitCanBeKeptOutByConfiguration() {
        runner.withPropertyValues("guard.rate-limit.instances.login.http-headers=false")
                .run(context -> mvc(context).perform(post("/login"))
                        .andExpect(status().isOk())
                        .andExpect(header().doesNotExist("RateLimit-Policy")));
    }
}
