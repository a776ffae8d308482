package io.guard.spring.boot.autoconfigure;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.AutoConfigs;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The starter brings no AspectJ (its auto-proxy creator inspects every bean for {@code @Aspect} at start-up), and
 * Guard's advisors apply without it: with Spring Boot's default AOP configuration, and with auto-proxying or class
 * proxying turned off, where Guard registers the infrastructure auto-proxy creator itself.
 */
class GuardWithoutAspectJTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AutoConfigs.type("AopAutoConfiguration"),
                    GuardAutoConfiguration.class))
            .withBean(OneCallPerMinute.class)
            .withPropertyValues("guard.rate-limit.backend=local");

    @Test
    void theStartersClassPathHasNoAspectJ() {
        assertThat(ClassUtils.isPresent("org.aspectj.weaver.Advice", getClass().getClassLoader())).isFalse();
    }

    @Test
    void limitsApplyWithBootsDefaultAopConfiguration() {
        runner.run(context -> assertSecondCallRefused(context.getBean(OneCallPerMinute.class)));
    }

    @Test
    void limitsApplyWithAutoProxyingOff() {
        runner.withPropertyValues("spring.aop.auto=false")
                .run(context -> assertSecondCallRefused(context.getBean(OneCallPerMinute.class)));
    }

    @Test
    void limitsApplyWithClassProxyingOff() {
        runner.withPropertyValues("spring.aop.proxy-target-class=false")
                .run(context -> assertSecondCallRefused(context.getBean(OneCallPerMinute.class)));
    }

    private static void assertSecondCallRefused(OneCallPerMinute service) {
        assertThat(service.call()).isEqualTo("ok");
        assertThatThrownBy(service::call).isInstanceOf(RateLimitExceededException.class);
    }

    static class OneCallPerMinute {
        @RateLimit(name = "without-aspectj", rate = 1, interval = "1m")
        public String call() {
            return "ok";
        }
    }
}
