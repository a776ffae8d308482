package io.guard.spring.autoconfigure;

import io.guard.spring.web.GuardReactiveExceptionHandler;
import io.guard.spring.web.RateLimitHeadersWebFilter;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.DispatcherHandler;
import reactor.core.publisher.Mono;

/** WebFlux: a filter that collects each exchange's decisions into header fields, and the 429/503/400 answers. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({DispatcherHandler.class, Mono.class})
class GuardWebFluxConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RateLimitHeadersWebFilter guardRateLimitHeadersWebFilter() {
        return new RateLimitHeadersWebFilter();
    }

    @Bean
    @ConditionalOnMissingBean
    GuardReactiveExceptionHandler guardReactiveExceptionHandler() {
        return new GuardReactiveExceptionHandler();
    }
}
