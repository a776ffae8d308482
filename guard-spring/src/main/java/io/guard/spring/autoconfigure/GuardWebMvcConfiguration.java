package io.guard.spring.autoconfigure;

import io.guard.spring.web.GuardServletExceptionHandler;
import io.guard.spring.web.ServletRateLimitDecisionSinks;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.DispatcherServlet;

/** Spring MVC: RateLimit header fields on every answer of a limited handler, and the 429/503/400 answers. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
class GuardWebMvcConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ServletRateLimitDecisionSinks guardServletDecisionSinks() {
        return new ServletRateLimitDecisionSinks();
    }

    @Bean
    @ConditionalOnMissingBean
    GuardServletExceptionHandler guardServletExceptionHandler() {
        return new GuardServletExceptionHandler();
    }
}
