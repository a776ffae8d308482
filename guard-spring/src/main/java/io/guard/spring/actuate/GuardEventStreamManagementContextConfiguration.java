package io.guard.spring.actuate;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The HTTP side of {@code guardevents/stream}, as a management-context configuration: Spring Boot loads it into the
 * application context when the actuator shares the application's port, and into the management child context when
 * {@code management.server.port} is set, so the stream is never served on the public port while every other
 * actuator endpoint is on the management one, and the security that guards the actuator guards it too.
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnBean(GuardEventStream.class)
class GuardEventStreamManagementContextConfiguration {

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
