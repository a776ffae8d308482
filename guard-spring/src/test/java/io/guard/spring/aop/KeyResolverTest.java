package io.guard.spring.aop;

import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.key.RateLimitKeyContext;
import io.guard.spring.key.RateLimitKeyResolver;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How a key resolver bean and the request variables see a call made outside any web request (the in-process backend
 * decides; the web cases run on Redis in {@code ClientKeyIT}, on both servers).
 */
class KeyResolverTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withPropertyValues("guard.rate-limit.backend=local");

    public static class Exports {
        @RateLimit(name = "export-per-tenant", keyResolver = "tenantKey", rate = 1, interval = "60s")
        public String export(String tenant) {
            return "export of " + tenant;
        }

        @RateLimit(name = "broken", keyResolver = "failingKey", rate = 1, interval = "60s")
        public String broken() {
            return "never";
        }

        /** A parameter named like a request variable keeps its meaning. */
        @RateLimit(name = "per-principal", key = "#principal", rate = 1, interval = "60s")
        public String byParameter(String principal) {
            return "ok";
        }
    }

    @Test
    void aResolverSeesTheCallAndNoRequestOutsideOne() {
        List<RateLimitKeyContext> seen = new ArrayList<>();
        runner.withBean(Exports.class)
                .withBean("tenantKey", RateLimitKeyResolver.class, () -> call -> {
                    seen.add(call);
                    return "tenant:" + call.args()[0];
                })
                .withBean("failingKey", RateLimitKeyResolver.class, () -> call -> "unused")
                .run(context -> {
                    Exports exports = context.getBean(Exports.class);
                    assertThat(exports.export("acme")).isEqualTo("export of acme");
                    assertThatThrownBy(() -> exports.export("acme")).isInstanceOf(RateLimitExceededException.class);
                    assertThat(exports.export("globex")).isEqualTo("export of globex");
                    RateLimitKeyContext call = seen.get(0);
                    assertThat(call.method().getName()).isEqualTo("export");
                    assertThat(call.target()).isInstanceOf(Exports.class);
                    assertThat(call.clientIp()).isNull();
                    assertThat(call.principal()).isNull();
                    assertThat(call.header("X-Api-Key")).isNull();
                    assertThat(call.nativeRequest(Object.class)).isNull();
                });
    }

    @Test
    void aResolverThatThrowsFailsTheCallWithoutTakingAPermit() {
        runner.withBean(Exports.class)
                .withBean("tenantKey", RateLimitKeyResolver.class, () -> call -> "t")
                .withBean("failingKey", RateLimitKeyResolver.class, () -> call -> {
                    throw new IllegalStateException("tenant directory unavailable");
                })
                .run(context -> {
                    assertThatThrownBy(() -> context.getBean(Exports.class).broken())
                            .isInstanceOf(IllegalStateException.class).hasMessage("tenant directory unavailable");
                    var stats = context.getBean(RateLimiterRegistry.class).stats("broken");
                    assertThat(stats.permitted() + stats.rejected()).isZero();
                });
    }

    @Test
    void aParameterNamedLikeARequestVariableWins() {
        runner.withBean(Exports.class)
                .withBean("tenantKey", RateLimitKeyResolver.class, () -> call -> "t")
                .withBean("failingKey", RateLimitKeyResolver.class, () -> call -> "t")
                .run(context -> {
                    Exports exports = context.getBean(Exports.class);
                    assertThat(exports.byParameter("ann")).isEqualTo("ok");
                    assertThatThrownBy(() -> exports.byParameter("ann"))
                            .isInstanceOf(RateLimitExceededException.class);
                    assertThat(exports.byParameter("ben")).isEqualTo("ok");
                });
    }
}
