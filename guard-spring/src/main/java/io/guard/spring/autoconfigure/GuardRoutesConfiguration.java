package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.GuardPropertiesCheck;
import io.guard.spring.autoconfigure.report.GuardPropertiesException;
import io.guard.spring.autoconfigure.report.PropertyMistakes;
import io.guard.spring.observation.GuardObservations;
import org.springframework.beans.factory.ObjectProvider;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.method.GuardAnnotationException;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.routes.RouteLimits;
import io.guard.spring.web.GuardRouteFilter;
import io.guard.spring.web.GuardRouteWebFilter;
import io.guard.spring.web.GuardServletExceptionHandler;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.servlet.DispatcherServlet;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Limits by URL pattern ({@code guard.rate-limit.routes}): checked at start-up, all mistakes in one report, and
 * applied by a servlet filter (Spring MVC) or a web filter (WebFlux). Nothing of it exists without a route.
 *
 * <p>Internal: public for the start-up report, which checks the routes with every other value; not an API.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication
@Conditional(GuardRoutesConfiguration.RoutesConfigured.class)
public class GuardRoutesConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RouteLimits guardRouteLimits(GuardProperties properties, ConfigurableListableBeanFactory beanFactory,
                                 RateLimiterRegistry limiters, LiveLimits live,
                                 ObjectProvider<GuardObservations> observations) {
        RateLimitProperties limits = properties.getRateLimit();
        try {
            return RouteLimits.create(limits.getRoutes().stream().map(RouteProperties::toDefinition).toList(),
                    beanFactory, limits::instanceSettings, limits.getDefaults().toSettings(), limits.getMissingKey(),
                    limiters, live).observedBy(observations::getIfAvailable);
        } catch (GuardAnnotationException e) {
            throw invalidRoutes(e.problems());
        }
    }

    /**
     * Every mistake as {@code guard.rate-limit.routes[i].field: 'value' problem}, in one exception. Start-up reports
     * them before (see {@link GuardPropertiesCheck}); this is for what reaches the bean all the same.
     */
    static GuardPropertiesException invalidRoutes(List<GuardAnnotationException> problems) {
        PropertyMistakes.Mistake mistake = mistake(problems, property -> "");
        return new GuardPropertiesException(mistake.property(), mistake.reason(), mistake.action());
    }

    /**
     * The routes' mistakes as one entry of the start-up report, a line each:
     * {@code guard.rate-limit.routes[i].field: 'value' problem [origin]}.
     *
     * @param origin where a property was written ({@code " [from ...]"}), or an empty string
     */
    public static PropertyMistakes.Mistake mistake(List<GuardAnnotationException> problems,
                                                   UnaryOperator<String> origin) {
        String lines = problems.stream()
                .map(p -> "\n - " + p.element() + "." + p.attribute() + ": '" + p.value() + "' " + p.problem()
                        + origin.apply(p.element() + "." + p.attribute()))
                .collect(Collectors.joining());
        String actions = problems.stream().map(p -> p.element() + "." + p.attribute() + ": " + p.action())
                .distinct().collect(Collectors.joining("\n"));
        return new PropertyMistakes.Mistake("guard.rate-limit.routes", null, problems.size()
                + (problems.size() == 1 ? " mistake" : " mistakes") + " in the routes:" + lines, actions);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(DispatcherServlet.class)
    static class Servlet {

        @Bean
        @ConditionalOnMissingBean
        GuardRouteFilter guardRouteFilter(RouteLimits routes, GuardServletExceptionHandler answers) {
            return new GuardRouteFilter(routes, answers);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass({DispatcherHandler.class, Mono.class})
    static class Reactive {

        @Bean
        @ConditionalOnMissingBean
        GuardRouteWebFilter guardRouteWebFilter(RouteLimits routes) {
            return new GuardRouteWebFilter(routes);
        }
    }

    /** Whether any {@code guard.rate-limit.routes[i]} property is set. */
    static class RoutesConfigured extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean configured = Binder.get(context.getEnvironment())
                    .bind("guard.rate-limit.routes", Bindable.listOf(RouteProperties.class))
                    .map(list -> !list.isEmpty()).orElse(false);
            return configured ? ConditionOutcome.match("guard.rate-limit.routes is set")
                    : ConditionOutcome.noMatch("no guard.rate-limit.routes");
        }
    }
}
