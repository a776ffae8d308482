package io.guard.spring.autoconfigure;

import io.guard.spring.web.ExchangeContextWebFilter;
import io.guard.spring.web.GuardReactiveAdvice;
import io.guard.spring.web.GuardReactiveExceptionHandler;
import org.springframework.context.ApplicationContext;
import io.guard.spring.web.GuardWebExceptionHandler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.codec.ServerCodecConfigurer;
import io.guard.spring.web.RateLimitHeadersWebFilter;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.DispatcherHandler;
import reactor.core.publisher.Mono;

/**
 * WebFlux: a filter that collects each exchange's decisions into header fields, one that makes the exchange
 * reachable for rate-limit keys, and the 429/503/400 answers, for refusals raised in controllers and in web filters
 * alike.
 */
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
    ExchangeContextWebFilter guardExchangeContextWebFilter() {
        return new ExchangeContextWebFilter();
    }

    @Bean
    @ConditionalOnMissingBean
    GuardReactiveExceptionHandler guardReactiveExceptionHandler() {
        return new GuardReactiveExceptionHandler();
    }

    @Bean
    @ConditionalOnMissingBean
    GuardReactiveAdvice.RateLimited guardRateLimitedAdvice(GuardReactiveExceptionHandler answers,
                                                          ApplicationContext context) {
        return new GuardReactiveAdvice.RateLimited(answers, context);
    }

    @Bean
    @ConditionalOnMissingBean
    GuardReactiveAdvice.CircuitOpen guardCircuitOpenAdvice(GuardReactiveExceptionHandler answers,
                                                          ApplicationContext context) {
        return new GuardReactiveAdvice.CircuitOpen(answers, context);
    }

    @Bean
    @ConditionalOnMissingBean
    GuardReactiveAdvice.BulkheadFull guardBulkheadFullAdvice(GuardReactiveExceptionHandler answers,
                                                             ApplicationContext context) {
        return new GuardReactiveAdvice.BulkheadFull(answers, context);
    }

    @Bean
    @ConditionalOnMissingBean
    GuardReactiveAdvice.BackendUnavailable guardBackendUnavailableAdvice(GuardReactiveExceptionHandler answers,
                                                                        ApplicationContext context) {
        return new GuardReactiveAdvice.BackendUnavailable(answers, context);
    }

    @Bean
    @ConditionalOnMissingBean
    GuardReactiveAdvice.MissingKey guardMissingKeyAdvice(GuardReactiveExceptionHandler answers,
                                                        ApplicationContext context) {
        return new GuardReactiveAdvice.MissingKey(answers, context);
    }

    @Bean
    @ConditionalOnMissingBean
    GuardReactiveAdvice.InvalidPermits guardInvalidPermitsAdvice(GuardReactiveExceptionHandler answers,
                                                                ApplicationContext context) {
        return new GuardReactiveAdvice.InvalidPermits(answers, context);
    }

    @Bean
    @ConditionalOnMissingBean
    GuardWebExceptionHandler guardWebExceptionHandler(ObjectProvider<ServerCodecConfigurer> codecs) {
        return new GuardWebExceptionHandler(
                () -> codecs.getIfAvailable(ServerCodecConfigurer::create).getWriters());
    }
}
