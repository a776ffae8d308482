package io.guard.spring.aop;

import io.guard.spring.ratelimit.CostCharges;
import io.guard.spring.ratelimit.Limiting;
import io.guard.ratelimit.RateLimiterRegistry;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.observation.GuardObservations;
import io.guard.spring.ratelimit.LiveLimits;
import io.guard.spring.ratelimit.MissingKeyPolicy;
import io.guard.spring.ratelimit.RateLimitDecisionSinks;
import org.springframework.aop.Advisor;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.util.function.SingletonSupplier;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Creates the two advisors behind {@code @RateLimit} and {@code @CircuitBreaker}. They are plain Spring AOP
 * advisors (no AspectJ expressions); their order decides the nesting: the lower order is outermost. The default,
 * rate limit outside the breaker, means a 429 never reaches (and never counts against) the breaker.
 */
public final class GuardAdvisors {

    private GuardAdvisors() {
    }

    /**
     * @param methods    the resolved annotations (created on the first call)
     * @param limiter    decides and counts permits (created on the first call)
     * @param live       the run-time overrides (shadow mode); its supplier may answer null when there are none
     * @param missingKey what to do when a key expression yields nothing
     * @param sinks      where decisions go for HTTP header fields
     * @param observations observes each decision; its supplier may answer null (asked on the first call)
     * @param order      the advisor's order; lower is outer
     */
    public static Advisor rateLimitAdvisor(Supplier<GuardedMethods> methods, Supplier<RateLimiterRegistry> limiter,
                                           Supplier<LiveLimits> live, MissingKeyPolicy missingKey,
                                           RateLimitDecisionSinks sinks, Supplier<GuardObservations> observations,
                                           int order) {
        Supplier<GuardedMethods> lazyMethods = SingletonSupplier.of(methods);
        Supplier<Limiting> limiting = SingletonSupplier.of(() -> new Limiting(limiter.get(), missingKey,
                live.get()));
        var interceptor = new RateLimitInterceptor(lazyMethods, limiting, sinks,
                ReactiveGuards.detect(GuardAdvisors.class.getClassLoader()), active(observations),
                SingletonSupplier.of(() -> new CostCharges(limiter.get())));
        return advisor(GuardAnnotations::hasRateLimit, interceptor, order);
    }

    /**
     * @param methods the resolved annotations (created on the first call)
     * @param observations observes each call; its supplier may answer null (asked on the first call)
     * @param order   the advisor's order; lower is outer
     */
    public static Advisor circuitBreakerAdvisor(Supplier<GuardedMethods> methods,
                                                Supplier<GuardObservations> observations, int order) {
        var interceptor = new CircuitBreakerInterceptor(SingletonSupplier.of(methods),
                ReactiveGuards.detect(GuardAdvisors.class.getClassLoader()), active(observations));
        return advisor(GuardAnnotations::hasCircuitBreaker, interceptor, order);
    }

    /**
     * The observations, asked for once on the first call: null when there are none or their registry is a no-op,
     * so that an application without observations pays one read per call and nothing else.
     */
    private static Supplier<GuardObservations> active(Supplier<GuardObservations> observations) {
        Supplier<Optional<GuardObservations>> once = SingletonSupplier.of(() ->
                Optional.ofNullable(observations.get()).filter(GuardObservations::active));
        return () -> once.get().orElse(null);
    }

    /** Whether {@code advisor} is one of Guard's (rate limit or circuit breaker). */
    public static boolean isGuard(Advisor advisor) {
        return advisor.getAdvice() instanceof RateLimitInterceptor
                || advisor.getAdvice() instanceof CircuitBreakerInterceptor;
    }

    /** Whether {@code advisor} is Guard's circuit breaker. */
    public static boolean isCircuitBreaker(Advisor advisor) {
        return advisor.getAdvice() instanceof CircuitBreakerInterceptor;
    }

    /** Whether {@code advisor} is Guard's rate limit. */
    public static boolean isRateLimit(Advisor advisor) {
        return advisor.getAdvice() instanceof RateLimitInterceptor;
    }

    /** Whether {@code advisor} is Spring Framework 7's {@code @Retryable} or {@code @ConcurrencyLimit}. */
    public static boolean isSpringResilience(Advisor advisor) {
        return advisor.getAdvice().getClass().getName().startsWith(SPRING_RESILIENCE);
    }

    /** {@code @Retryable}'s advice (Spring Framework 7): by name, so that Boot 3.5 never loads the class. */
    public static boolean isSpringRetry(Advisor advisor) {
        return advisor.getAdvice().getClass().getName().startsWith(SPRING_RESILIENCE + "annotation.Retry");
    }

    private static final String SPRING_RESILIENCE = "org.springframework.resilience.";

    private static Advisor advisor(BiPredicate<Method, Class<?>> matches,
                                   org.aopalliance.aop.Advice interceptor, int order) {
        var pointcut = new StaticMethodMatcherPointcut() {
            @Override
            public boolean matches(Method method, Class<?> targetClass) {
                return matches.test(method, targetClass);
            }
        };
        pointcut.setClassFilter(GuardedMethods::isCandidate);
        var advisor = new DefaultPointcutAdvisor(pointcut, interceptor);
        advisor.setOrder(order);
        return advisor;
    }
}
