package io.guard.spring.actuate;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.ratelimit.RateLimiterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code guard} and {@code guardevents} actuator endpoints and the live event stream. Each is created only
 * when available (enabled and exposed), so an application that exposes nothing pays nothing.
 */
@AutoConfiguration(after = { EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class },
        afterName = GuardEndpointAutoConfiguration.GUARD_AUTO_CONFIGURATION)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnProperty(prefix = "guard", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardEventStreamProperties.class)
public class GuardEndpointAutoConfiguration {

    /** The starter's main auto-configuration, which creates the registries read here. */
    static final String GUARD_AUTO_CONFIGURATION = "io.guard.spring.autoconfigure.GuardAutoConfiguration";

    static GuardRegistries registries(ObjectProvider<CircuitBreakerRegistry> breakers,
                                      ObjectProvider<RateLimiterRegistry> limiters) {
        return new GuardRegistries(breakers.getIfAvailable(), limiters.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    GuardEndpoint guardEndpoint(ObjectProvider<CircuitBreakerRegistry> breakers,
                                ObjectProvider<RateLimiterRegistry> limiters) {
        return new GuardEndpoint(registries(breakers, limiters));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(GuardEndpoint.class)
    @ConditionalOnAvailableEndpoint(endpoint = GuardEndpoint.class, exposure = EndpointExposure.WEB)
    GuardEndpointWebExtension guardEndpointWebExtension(GuardEndpoint endpoint) {
        return new GuardEndpointWebExtension(endpoint);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    GuardEventsEndpoint guardEventsEndpoint(ObjectProvider<CircuitBreakerRegistry> breakers,
                                            ObjectProvider<RateLimiterRegistry> limiters) {
        return new GuardEventsEndpoint(registries(breakers, limiters));
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(GuardEventsEndpoint.class)
    @ConditionalOnAvailableEndpoint(endpoint = GuardEventsEndpoint.class, exposure = EndpointExposure.WEB)
    GuardEventsEndpointWebExtension guardEventsEndpointWebExtension(GuardEventsEndpoint endpoint) {
        return new GuardEventsEndpointWebExtension(endpoint);
    }

    /** The live stream exists only when {@code guardevents} is exposed over HTTP: it shows the same events. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(endpoint = GuardEventsEndpoint.class, exposure = EndpointExposure.WEB)
    @ConditionalOnProperty(prefix = "management.endpoint.guardevents.stream", name = "enabled", matchIfMissing = true)
    @ConditionalOnWebApplication
    static class EventStreamConfiguration {

        @Bean
        @ConditionalOnMissingBean
        GuardEventStream guardEventStream(ObjectProvider<CircuitBreakerRegistry> breakers,
                                          ObjectProvider<RateLimiterRegistry> limiters,
                                          GuardEventStreamProperties properties) {
            return new GuardEventStream(registries(breakers, limiters), properties.getQueueSize(),
                    properties.getMaxSubscribers());
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
        @ConditionalOnClass(name = "org.springframework.web.servlet.mvc.method.annotation.SseEmitter")
        static class Servlet {

            @Bean
            @ConditionalOnMissingBean
            GuardEventStreamMvcController guardEventStreamMvcController(GuardEventStream stream,
                                                                        GuardEventStreamProperties properties) {
                return new GuardEventStreamMvcController(stream, properties.getTimeout());
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
        @ConditionalOnClass(name = { "reactor.core.publisher.Flux", "org.springframework.http.codec.ServerSentEvent" })
        static class Reactive {

            @Bean
            @ConditionalOnMissingBean
            GuardEventStreamReactiveController guardEventStreamReactiveController(GuardEventStream stream,
                                                                                GuardEventStreamProperties properties) {
                return new GuardEventStreamReactiveController(stream, properties.getQueueSize());
            }
        }
    }
}
