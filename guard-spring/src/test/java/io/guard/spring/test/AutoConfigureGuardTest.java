package io.guard.spring.test;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A test slice of an application (what {@code @WebMvcTest} builds: the application's own beans, a few of Boot's
 * auto-configurations, none of Guard's) with and without {@link AutoConfigureGuard}, and {@link GuardQuotas}
 * between test cases.
 */
class AutoConfigureGuardTest {

    private final ApplicationContextRunner slice = new ApplicationContextRunner()
            .withPropertyValues("guard.rate-limit.backend=local");

    @Test
    void withoutItASliceIgnoresRateLimit() {
        slice.withUserConfiguration(PlainSlice.class).run(context -> {
            assertThat(context).doesNotHaveBean(io.guard.ratelimit.RateLimiterRegistry.class);
            Owners owners = context.getBean(Owners.class);
            for (int i = 0; i < 5; i++) {
                owners.search("Davis");
            }
        });
    }

    @Test
    void withItASliceEnforcesRateLimitInProcess() {
        slice.withUserConfiguration(GuardedSlice.class).run(context -> {
            Owners owners = context.getBean(Owners.class);
            owners.search("Davis");
            owners.search("Davis");
            assertThatThrownBy(() -> owners.search("Davis")).isInstanceOf(RateLimitExceededException.class);
        });
    }

    @Test
    void quotasCanBeInspectedAndResetBetweenTestCases() {
        slice.withUserConfiguration(GuardedSlice.class).run(context -> {
            Owners owners = context.getBean(Owners.class);
            GuardQuotas quotas = GuardQuotas.of(context);
            owners.search("Davis");
            owners.search("Davis");
            assertThatThrownBy(() -> owners.search("Davis")).isInstanceOf(RateLimitExceededException.class);
            assertThat(quotas.stats("owner-search").permitted()).isEqualTo(2);
            assertThat(quotas.stats("owner-search").rejected()).isEqualTo(1);

            quotas.reset();

            owners.search("Davis");
            owners.search("Davis");
            assertThat(quotas.stats("owner-search").permitted()).isEqualTo(4);
        });
    }

    @Test
    void anUnknownLimitNamesTheLimitsThereAre() {
        slice.withUserConfiguration(GuardedSlice.class).run(context ->
                assertThatThrownBy(() -> GuardQuotas.of(context).stats("owner-serch"))
                        .hasMessage("No rate limit named 'owner-serch'; limits: [owner-search]"));
    }

    @Configuration(proxyBeanMethods = false)
    static class PlainSlice {

        @Bean
        Owners owners() {
            return new Owners();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigureGuard
    static class GuardedSlice extends PlainSlice {
    }

    static class Owners {

        @RateLimit(name = "owner-search", key = "#lastName", rate = 2, interval = "1h")
        public String search(String lastName) {
            return lastName;
        }
    }
}
