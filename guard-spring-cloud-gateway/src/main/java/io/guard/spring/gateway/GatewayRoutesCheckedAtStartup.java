package io.guard.spring.gateway;

import io.guard.spring.autoconfigure.GuardPropertiesException;
import io.guard.spring.method.GuardAnnotationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.factory.RequestRateLimiterGatewayFilterFactory;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs {@link GatewayRouteCheck} once every bean exists (the gateway's filter factory included, which tells whether
 * Guard's limiter is the default one), and stops the start-up with one report of every mistake.
 *
 * <p>Internal: public only for the auto-configuration.
 */
public final class GatewayRoutesCheckedAtStartup implements SmartInitializingSingleton {

    private final GatewayLimits limits;
    private final GuardGatewayRateLimiter limiter;
    private final String beanName;
    private final ObjectProvider<GatewayProperties> gateway;
    private final ObjectProvider<RequestRateLimiterGatewayFilterFactory> filters;

    /** @param beanName the name of {@code limiter}'s bean, as routes name it: {@code #{@guardGatewayRateLimiter}} */
    public GatewayRoutesCheckedAtStartup(GatewayLimits limits, GuardGatewayRateLimiter limiter, String beanName,
                                         ObjectProvider<GatewayProperties> gateway,
                                         ObjectProvider<RequestRateLimiterGatewayFilterFactory> filters) {
        this.limits = limits;
        this.limiter = limiter;
        this.beanName = beanName;
        this.gateway = gateway;
        this.filters = filters;
    }

    @Override
    public void afterSingletonsInstantiated() {
        GatewayProperties properties = gateway.getIfAvailable();
        if (properties == null) {
            return;
        }
        RequestRateLimiterGatewayFilterFactory factory = filters.getIfAvailable();
        boolean guardIsDefault = factory != null && factory.getDefaultRateLimiter() == limiter;
        List<GuardAnnotationException> problems =
                new GatewayRouteCheck(limits, beanName, guardIsDefault).check(properties);
        if (!problems.isEmpty()) {
            throw invalidRoutes(problems);
        }
    }

    /** Every mistake as {@code route 'id' (property): args.guard.limit 'value' problem}, in one exception. */
    static GuardPropertiesException invalidRoutes(List<GuardAnnotationException> problems) {
        String lines = problems.stream()
                .map(p -> "\n - " + p.element() + ": " + p.attribute() + " '" + p.value() + "' " + p.problem())
                .collect(Collectors.joining());
        String actions = problems.stream().map(p -> p.element() + ": " + p.action())
                .distinct().collect(Collectors.joining("\n"));
        return new GuardPropertiesException(GatewayProperties.PREFIX + ".routes", problems.size()
                + (problems.size() == 1 ? " mistake" : " mistakes") + " in the routes Guard limits:" + lines, actions);
    }
}
