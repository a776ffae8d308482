package io.guard.spring.web;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockServletContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.client.MockMvcWebTestClient;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;

/**
 * The two web stacks the route ITs run on, each an application with Guard on Redis and the controllers a test
 * brings, and a client that goes through Guard: MockMvc with the servlet filters an application server would run,
 * in their order (MVC), or the application's {@code WebHandler} (WebFlux).
 */
enum RouteStacks {
    MVC {
        @Override
        ConfigurableApplicationContext start(RedisEndpoint redis, Class<?> controllers, String... properties) {
            var web = new AnnotationConfigWebApplicationContext();
            web.setServletContext(new MockServletContext());
            return RedisBacked.start(web, redis, c -> c.register(Mvc.class, controllers), properties);
        }

        @Override
        WebTestClient client(ConfigurableApplicationContext context) {
            var web = (WebApplicationContext) context;
            return MockMvcWebTestClient.bindTo(MockMvcBuilders.webAppContextSetup(web)
                    .addFilters(web.getBean(GuardServletAnswerFilter.class), web.getBean(GuardRouteFilter.class))
                    .build()).build();
        }
    },
    WEBFLUX {
        @Override
        ConfigurableApplicationContext start(RedisEndpoint redis, Class<?> controllers, String... properties) {
            return RedisBacked.start(AutoConfigs.reactiveWebContext(), redis,
                    c -> c.register(WebFlux.class, controllers), properties);
        }

        @Override
        WebTestClient client(ConfigurableApplicationContext context) {
            return WebTestClient.bindToApplicationContext(context).build();
        }
    };

    abstract ConfigurableApplicationContext start(RedisEndpoint redis, Class<?> controllers, String... properties);

    abstract WebTestClient client(ConfigurableApplicationContext context);

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"JacksonAutoConfiguration", "HttpMessageConvertersAutoConfiguration",
            "DispatcherServletAutoConfiguration", "WebMvcAutoConfiguration",
            "DataRedisAutoConfiguration|RedisAutoConfiguration", "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    static class Mvc {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"JacksonAutoConfiguration", "CodecsAutoConfiguration", "WebFluxAutoConfiguration",
            "HttpHandlerAutoConfiguration", "DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    static class WebFlux {
    }
}
