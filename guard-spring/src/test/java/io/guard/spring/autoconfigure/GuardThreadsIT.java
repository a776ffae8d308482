package io.guard.spring.autoconfigure;

import io.guard.breaker.CallNotPermittedException;
import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.breaker.State;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Guard keeps time on one thread in a running application: breakers' timed transitions, the Redis decisions'
 * timeouts, waiting acquires and the overrides' re-read all use the one timer ({@code guard-timer}), whose due tasks
 * run on its bounded callback pool. Counted among the threads this context started, with every one of those timed
 * jobs exercised.
 */
@RedisTest
class GuardThreadsIT {

    /** Pool threads that run what falls due, and the connect thread: not timers. */
    private static final Pattern NOT_A_TIMER = Pattern.compile("guard-callback-\\d+|guard-redis-connect");

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration",
            "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    static class Application {
        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    static class Orders {
        @RateLimit(name = "threads-waiting", rate = 1, interval = "1s", timeout = "10s")
        public String submit() {
            return "submitted";
        }

        @CircuitBreaker(name = "threads-flaky")
        public String stock() {
            throw new IllegalStateException("stock service down");
        }
    }

    @Test
    void oneTimerThreadKeepsAllOfGuardsTime(RedisEndpoint redis) {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (var context = RedisBacked.start(new AnnotationConfigApplicationContext(), redis,
                c -> c.register(Application.class),
                "guard.rate-limit.override-poll-interval=100ms",
                "guard.circuit-breaker.instances.threads-flaky.sliding-window-size=2",
                "guard.circuit-breaker.instances.threads-flaky.minimum-number-of-calls=2",
                "guard.circuit-breaker.instances.threads-flaky.wait-duration-in-open-state=60s",
                "guard.circuit-breaker.instances.threads-flaky.automatic-transition-from-open-to-half-open-enabled=true")) {
            Orders orders = context.getBean(Orders.class);
            assertThat(orders.submit()).isEqualTo("submitted");
            assertThat(orders.submit()).as("admitted after waiting on the timer").isEqualTo("submitted");
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(orders::stock).isInstanceOf(IllegalStateException.class);
            }
            assertThatThrownBy(orders::stock).isInstanceOf(CallNotPermittedException.class);
            assertThat(context.getBean(CircuitBreakerRegistry.class).find("threads-flaky").orElseThrow().state())
                    .isEqualTo(State.OPEN);

            List<String> timers = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> !before.contains(thread) && thread.getName().startsWith("guard-"))
                    .map(Thread::getName)
                    .filter(name -> !NOT_A_TIMER.matcher(name).matches())
                    .sorted().toList();
            assertThat(timers).as("Guard's threads other than callback pools").containsExactly("guard-timer");
        }
    }
}
