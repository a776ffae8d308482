package io.guard.spring.actuate;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The web side of {@code guardevents/stream}: a controller that lives where the actuator lives. With one port it
 * joins the application's context; with {@code management.server.port} it joins the management server's child
 * context, next to the endpoints, so the stream shares their port, base path and security, and the dashboard
 * served there can reach it. The {@link GuardEventStream} itself stays in the application's context. Gated by
 * {@code guard.enabled} first, as every Guard configuration is, so a disabled Guard does not even load its types.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "guard", name = "enabled", matchIfMissing = true)
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
