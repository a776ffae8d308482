package io.guard.spring.autoconfigure;

import io.guard.spring.web.GuardServletAnswerFilter;
import io.guard.spring.web.GuardServletExceptionHandler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

import java.util.List;
import io.guard.spring.web.ServletRateLimitDecisionSinks;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Spring MVC: RateLimit header fields on every answer of a limited handler, and the 429/503/400 answers, for
 * refusals raised in controllers and in servlet filters alike.
 */
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
    GuardServletExceptionHandler guardServletExceptionHandler(ObjectProvider<RequestMappingHandlerAdapter> adapter,
                                                              ApplicationContext context) {
        return new GuardServletExceptionHandler(
                () -> adapter.getIfAvailable(() -> null) == null ? List.of() : adapter.getObject().getMessageConverters(),
                context);
    }

    @Bean
    @ConditionalOnMissingBean
    GuardServletAnswerFilter guardServletAnswerFilter(GuardServletExceptionHandler answers) {
        return new GuardServletAnswerFilter(answers);
    }
}
