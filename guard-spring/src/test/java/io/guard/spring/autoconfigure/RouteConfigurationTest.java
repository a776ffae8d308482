package io.guard.spring.autoconfigure;

import io.guard.spring.autoconfigure.report.StartupReports;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.routes.RouteLimits;
import io.guard.spring.web.GuardRouteFilter;
import io.guard.spring.web.GuardRouteWebFilter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code guard.rate-limit.routes}: checked at start-up, every mistake in one report; no route, no filter. */
class RouteConfigurationTest {

    private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    @Test
    void everyMistakeOfEveryRouteIsReportedInOneStartUpNamingPropertyAndValue() {
        servlet.withPropertyValues(
                "guard.rate-limit.instances.partner.rate=10",
                "guard.rate-limit.routes[0].name=partner",
                "guard.rate-limit.routes[0].paths[0]=/api/{id",
                "guard.rate-limit.routes[0].paths[1]=api/**",
                "guard.rate-limit.routes[0].methods[0]=GET",
                "guard.rate-limit.routes[0].methods[1]=FETCH",
                "guard.rate-limit.routes[0].key=#request.header('X-Api-Key') +",
                "guard.rate-limit.routes[1].name=unconfigured",
                "guard.rate-limit.routes[1].key=#userId",
                "guard.rate-limit.routes[2].paths[0]=/static/**",
                "guard.rate-limit.routes[3].name=partner",
                "guard.rate-limit.routes[3].paths[0]=/bulk/**",
                "guard.rate-limit.routes[3].permits=11"
        ).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofProperties(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription())
                    .startsWith("guard.rate-limit.routes: 9 mistakes in the routes:")
                    .contains("guard.rate-limit.routes[0].paths[0]: '/api/{id' is not a valid path pattern")
                    .contains("guard.rate-limit.routes[0].paths[1]: 'api/**' does not start with /")
                    .contains("guard.rate-limit.routes[0].methods[1]: 'FETCH' is not an HTTP method")
                    .contains("guard.rate-limit.routes[0].key: '#request.header('X-Api-Key') +' is not valid SpEL")
                    .contains("guard.rate-limit.routes[1].paths: '[]' is empty")
                    .contains("guard.rate-limit.routes[1].key: '#userId' refers to an unknown variable (#userId); "
                            + "variables are [#clientIp, #headers, #request]")
                    .contains("guard.rate-limit.routes[1].name: 'unconfigured' has no rate")
                    .contains("guard.rate-limit.routes[2].name: '' is empty")
                    .contains("guard.rate-limit.routes[3].permits: '11' is outside what limit 'partner' can grant "
                            + "(between 1 and 10)");
            assertThat(analysis.getAction()).contains("guard.rate-limit.routes[1].name: Set "
                    + "guard.rate-limit.instances.unconfigured.rate");
        });
    }

    @Test
    void aRouteOnALimitThatCannotLeaseStopsStartUpWithTheRoutesMistakes() {
        servlet.withPropertyValues("guard.rate-limit.instances.api.rate=5", "guard.rate-limit.instances.api.lease=2",
                "guard.rate-limit.routes[0].name=api", "guard.rate-limit.routes[0].paths[0]=/api/**"
        ).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupReports.ofProperties(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("guard.rate-limit.routes[0]")
                    .contains("lease '2' needs algorithm TOKEN_BUCKET or FIXED_WINDOW, but limit 'api' uses "
                            + "SLIDING_LOG");
        });
    }

    @Test
    void aKeyNamingAMissingBeanStopsStartUp() {
        servlet.withPropertyValues("guard.rate-limit.defaults.rate=5", "guard.rate-limit.routes[0].name=api",
                "guard.rate-limit.routes[0].paths[0]=/api/**", "guard.rate-limit.routes[0].key=@tenants.of(#request)"
        ).run(context -> assertThat(context).hasFailed().getFailure()
                .hasMessageContaining("guard.rate-limit.routes[0].key: '@tenants.of(#request)' refers to no bean "
                        + "(@tenants)"));
    }

    @Test
    void aRouteRegistersItsLimitAndInstallsTheServletFilter() {
        servlet.withPropertyValues("guard.rate-limit.instances.api.rate=5",
                "guard.rate-limit.instances.api.interval=10s",
                "guard.rate-limit.routes[0].name=api", "guard.rate-limit.routes[0].paths[0]=/api/**",
                "guard.rate-limit.routes[0].methods[0]=post", "guard.rate-limit.routes[0].key=#clientIp"
        ).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(GuardRouteFilter.class);
            assertThat(context.getBean(RateLimiterRegistry.class).find("api")).hasValueSatisfying(policy -> {
                assertThat(policy.rate()).isEqualTo(5);
                assertThat(policy.interval()).hasSeconds(10);
            });
        });
    }

    @Test
    void withoutRoutesThereIsNoRouteFilter() {
        servlet.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RouteLimits.class)
                .doesNotHaveBean(GuardRouteFilter.class));
    }

    @Test
    void aReactiveApplicationGetsTheWebFilter() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
                .withPropertyValues("guard.rate-limit.backend=local", "guard.rate-limit.defaults.rate=5",
                        "guard.rate-limit.routes[0].name=api", "guard.rate-limit.routes[0].paths[0]=/api/**")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(GuardRouteWebFilter.class)
                        .doesNotHaveBean(GuardRouteFilter.class));
    }
}
