package io.guard.spring.aop;

import io.guard.breaker.CallNotPermittedException;
import io.guard.spring.method.FallbackMethods;
import io.guard.spring.method.GuardedMethod;
import io.guard.spring.method.GuardedMethods;
import io.guard.spring.method.LimitSpec;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.resilience.annotation.Retryable;
import org.springframework.resilience.retry.MethodRetryPredicate;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.Supplier;

/**
 * Warns once at start-up, naming the method, where Spring Framework 7's {@code @Retryable} meets Guard's annotations
 * in a way that is surely wrong: retries without delay outside a breaker (one caller's burst of retries fills the
 * breaker's window, and an open breaker refuses the rest at once), or retries of Guard's own refusals (an open
 * breaker's {@link CallNotPermittedException}, a limit's {@link RateLimitExceededException}) that no fallback
 * answers. Only where the retry runs outside Guard's aspects, which is where Spring puts it unless
 * {@code guard.resilient-methods.position=inside}.
 *
 * <p>Loaded only when {@code @Retryable} exists (Spring Framework 7). Internal: public only because Guard's
 * auto-configuration creates it; not an API.
 */
public final class RetryableCombinations implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(RetryableCombinations.class);

    private final ConfigurableListableBeanFactory beanFactory;
    private final Supplier<GuardedMethods> methods;

    public RetryableCombinations(ConfigurableListableBeanFactory beanFactory, Supplier<GuardedMethods> methods) {
        this.beanFactory = beanFactory;
        this.methods = methods;
    }

    @Override
    public void afterSingletonsInstantiated() {
        for (String name : beanFactory.getSingletonNames()) {
            if (beanFactory.getSingleton(name) instanceof Advised advised) {
                warnings(advised).forEach(log::warn);
            }
        }
    }

    /** The warnings for one proxy's methods. */
    List<String> warnings(Advised advised) {
        Advisor[] advisors = advised.getAdvisors();
        int retry = -1;
        boolean limitInside = false;
        boolean breakerInside = false;
        for (Advisor advisor : advisors) {
            if (GuardAdvisors.isSpringRetry(advisor)) {
                retry = 0;
            } else if (retry == 0) {
                limitInside |= GuardAdvisors.isRateLimit(advisor);
                breakerInside |= GuardAdvisors.isCircuitBreaker(advisor);
            }
        }
        List<String> warnings = new ArrayList<>();
        if (!limitInside && !breakerInside) {
            return warnings;
        }
        Class<?> type = AopUtils.getTargetClass(advised);
        for (Method method : type.getMethods()) {
            if (method.getDeclaringClass() == Object.class || Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            Retryable retryable = AnnotatedElementUtils.findMergedAnnotation(method, Retryable.class);
            if (retryable == null) {
                retryable = AnnotatedElementUtils.findMergedAnnotation(type, Retryable.class);
            }
            if (retryable != null) {
                check(retryable, methods.get().get(method, type), describe(type, method), limitInside,
                        breakerInside, warnings);
            }
        }
        return warnings;
    }

    private static void check(Retryable retryable, GuardedMethod guarded, String method, boolean limitInside,
                              boolean breakerInside, List<String> warnings) {
        if (breakerInside && guarded.breaker() != null) {
            String breaker = guarded.breaker().breaker().name();
            if (retryable.delay() == 0 && retryable.delayString().isEmpty()) {
                warnings.add("@Retryable on " + method + " retries without delay around @CircuitBreaker '" + breaker
                        + "': each retry is one more breaker call right after a failure, so one caller's retries "
                        + "fill the breaker's window, and once it opens they are refused at once. Give @Retryable a "
                        + "delay (and a multiplier), or set guard.resilient-methods.position=inside.");
            }
            if (retries(retryable, CallNotPermittedException.class)
                    && !handles(guarded.breaker().fallback(), CallNotPermittedException.class)) {
                warnings.add("@Retryable on " + method + " retries the refusals of @CircuitBreaker '" + breaker
                        + "' (CallNotPermittedException): an open breaker refuses every retry at once. Add "
                        + "CallNotPermittedException to @Retryable's excludes, or give the breaker a fallback for it.");
            }
        }
        if (limitInside && retries(retryable, RateLimitExceededException.class)) {
            for (LimitSpec limit : guarded.limits()) {
                if (!limit.shadow() && !handles(limit.fallback(), RateLimitExceededException.class)) {
                    warnings.add("@Retryable on " + method + " retries the refusals of @RateLimit '" + limit.name()
                            + "' (RateLimitExceededException): each retry asks the limit again, long before its "
                            + "retry-after, and spends a permit when one is free. Add RateLimitExceededException to "
                            + "@Retryable's excludes, or give the limit a fallback.");
                    break;
                }
            }
        }
    }

    /** Whether the retry would retry {@code error}; a custom predicate cannot be read, so it is trusted. */
    private static boolean retries(Retryable retryable, Class<? extends Throwable> error) {
        if (retryable.predicate() != MethodRetryPredicate.class) {
            return false;
        }
        boolean included = retryable.includes().length == 0;
        for (Class<? extends Throwable> include : retryable.includes()) {
            included |= include.isAssignableFrom(error);
        }
        for (Class<? extends Throwable> exclude : retryable.excludes()) {
            if (exclude.isAssignableFrom(error)) {
                return false;
            }
        }
        return included;
    }

    /** {@code OrderService.quote(String)}, as Guard's start-up messages name methods. */
    private static String describe(Class<?> type, Method method) {
        StringJoiner parameters = new StringJoiner(", ", "(", ")");
        for (Class<?> parameter : method.getParameterTypes()) {
            parameters.add(parameter.getSimpleName());
        }
        return type.getSimpleName() + "." + method.getName() + parameters;
    }

    private static boolean handles(FallbackMethods fallback, Class<? extends Throwable> error) {
        return fallback != null && fallback.handles(error);
    }
}
