package io.guard.spring.autoconfigure;

import io.guard.bulkhead.Bulkhead;
import io.guard.bulkhead.BulkheadRegistry;
import io.guard.spring.bulkhead.AdaptiveLimitProperties;
import io.guard.spring.bulkhead.AdaptiveLimits;
import io.guard.spring.web.GuardServletExceptionHandler;
import io.guard.spring.web.ServerLimitFilter;
import io.guard.spring.web.ServerLimitWebFilter;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.servlet.DispatcherServlet;
import reactor.core.publisher.Mono;

/**
 * The server-wide adaptive limit on incoming requests ({@code guard.server-limit.enabled=true}): the bulkhead
 * {@code server} in the bulkhead registry (so it is metered and listed like any other), applied by a servlet filter
 * (Spring MVC) or a web filter (WebFlux). Off by default.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication
@ConditionalOnProperty(prefix = "guard.server-limit", name = "enabled", havingValue = "true")
class GuardServerLimitConfiguration {

    /** The bulkhead's name: in meters ({@code name=server}), {@code /actuator/guard} and refusals. */
    static final String SERVER = "server";

    static Bulkhead serverLimit(BulkheadRegistry bulkheads, GuardProperties properties) {
        AdaptiveLimitProperties settings = properties.getServerLimit().getAdaptiveLimit();
        return bulkheads.bulkhead(SERVER, () -> AdaptiveLimits.create(settings), AdaptiveLimits.retryAfter(settings));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(DispatcherServlet.class)
    static class Servlet {

        @Bean
        @ConditionalOnMissingBean
        ServerLimitFilter guardServerLimitFilter(BulkheadRegistry bulkheads, GuardProperties properties,
                                                 GuardServletExceptionHandler answers) {
            return new ServerLimitFilter(serverLimit(bulkheads, properties),
                    properties.getServerLimit().getExcludedPaths(), answers);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass({DispatcherHandler.class, Mono.class})
    static class Reactive {

        @Bean
        @ConditionalOnMissingBean
        ServerLimitWebFilter guardServerLimitWebFilter(BulkheadRegistry bulkheads, GuardProperties properties) {
            return new ServerLimitWebFilter(serverLimit(bulkheads, properties),
                    properties.getServerLimit().getExcludedPaths());
        }
    }
}
