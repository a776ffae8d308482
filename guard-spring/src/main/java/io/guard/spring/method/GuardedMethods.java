package io.guard.spring.method;

import io.guard.breaker.CircuitBreaker;
import io.guard.bulkhead.Bulkhead;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.lease.LeaseSize;
import io.guard.spring.ratelimit.LimitSettings;
import io.guard.spring.ratelimit.LimitTiers;
import org.springframework.aop.support.AopUtils;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.MethodClassKey;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The resolved Guard annotations of every method the aspects have seen, computed once per method and class.
 *
 * <p>Also the place where limits meet: two annotations may share a limit's name (one quota for several methods)
 * only if they resolve to the same policy; otherwise start-up fails naming both places. Each new policy is handed to
 * a listener (the limiter registry) once.
 */
public final class GuardedMethods {

    private final GuardedMethodFactory factory;
    private final GuardEvaluationContexts contexts;
    private final Consumer<RateLimitPolicy> policyListener;
    private final BiConsumer<String, LeaseSize> leaseListener;
    private final Map<MethodClassKey, GuardedMethod> cache = new ConcurrentHashMap<>();
    private final Map<String, RegisteredPolicy> policiesByName = new ConcurrentHashMap<>();
    /** The methods with limits, as {@link #get} resolved them: resolved again on a configuration refresh. */
    private final Map<MethodClassKey, LimitedMethod> limited = new ConcurrentHashMap<>();
    private final GuardExpressionParser parser;
    private final KeyResolverBeans keyResolvers;
    private final Function<String, CircuitBreaker> breakers;
    private final BiFunction<String, Integer, Bulkhead> bulkheads;

    private record LimitedMethod(Method method, Method specific, Class<?> userClass) {
    }

    /** A policy, its lease size and the first annotation that resolved it. */
    private record RegisteredPolicy(RateLimitPolicy policy, LeaseSize lease, AnnotationSite site) {
    }

    /**
     * @param beanFactory    resolves {@code @bean} references in expressions (checked at start-up); may be null
     * @param instances      {@code guard.rate-limit.instances.<name>} as settings ({@link LimitSettings#NONE} if absent)
     * @param tiers          {@code guard.rate-limit.instances.<name>.tiers} and {@code .default-tier}
     *                       ({@link LimitTiers#NONE} if absent); each tier's policy is handed to
     *                       {@code policyListener} as a policy of its own
     * @param defaults       {@code guard.rate-limit.defaults}
     * @param breakers       the breaker of a name (get-or-create)
     * @param bulkheads      the bulkhead of a breaker name given the bound its annotation asks for (0 = none
     *                       asked), or null when that name has none
     * @param policyListener told of each distinct policy once, when first seen
     * @param leaseListener  told of each distinct policy's lease size once, when first seen (by policy name)
     */
    public GuardedMethods(BeanFactory beanFactory, Function<String, LimitSettings> instances,
                          Function<String, LimitTiers> tiers, LimitSettings defaults,
                          Function<String, CircuitBreaker> breakers, BiFunction<String, Integer, Bulkhead> bulkheads,
                          Consumer<RateLimitPolicy> policyListener, BiConsumer<String, LeaseSize> leaseListener) {
        this.parser = new GuardExpressionParser(beanFactory == null ? null : beanFactory::containsBean);
        this.keyResolvers = new KeyResolverBeans(beanFactory);
        this.breakers = breakers;
        this.bulkheads = bulkheads;
        this.factory = new GuardedMethodFactory(parser, new LimitSpecFactory(parser, instances, tiers, defaults,
                keyResolvers), breakers, bulkheads);
        this.contexts = new GuardEvaluationContexts(parser.parameterNames(),
                beanFactory == null ? null : new BeanFactoryResolver(beanFactory));
        this.policyListener = policyListener;
        this.leaseListener = leaseListener;
    }

    /** Whether the class carries any Guard annotation at all: a first filter, answered once per class. */
    public static boolean isCandidate(Class<?> type) {
        return GuardedClasses.declaresGuards(type);
    }

    public GuardEvaluationContexts contexts() {
        return contexts;
    }

    /** The guards of {@code method} called on an instance of {@code targetClass}; {@link GuardedMethod#NONE} if none. */
    public GuardedMethod get(Method method, Class<?> targetClass) {
        // Keyed by the class as given (possibly a proxy class): the per-call lookup does no class-name work.
        var key = new MethodClassKey(method, targetClass);
        GuardedMethod found = cache.get(key);
        if (found != null) {
            return found;
        }
        Class<?> userClass = targetClass == null ? method.getDeclaringClass() : ClassUtils.getUserClass(targetClass);
        Method specific = AopUtils.getMostSpecificMethod(method, userClass);
        GuardedMethod created = factory.create(method, specific, userClass);
        created.limits().forEach(this::registerPolicies);
        if (!created.limits().isEmpty()) {
            limited.putIfAbsent(key, new LimitedMethod(method, specific, userClass));
        }
        GuardedMethod raced = cache.putIfAbsent(key, created);
        return raced != null ? raced : created;
    }

    /** Resolves every method of {@code type}, so that any mistake surfaces now rather than on the first call. */
    List<GuardAnnotationException> validate(Class<?> type) {
        Class<?> userClass = ClassUtils.getUserClass(type);
        if (!isCandidate(userClass)) {
            return List.of();
        }
        // by message: public methods are seen twice, through getMethods() and getDeclaredMethods()
        Map<String, GuardAnnotationException> problems = new LinkedHashMap<>();
        for (Method method : userClass.getMethods()) {
            check(method, userClass, problems);
        }
        for (Method method : userClass.getDeclaredMethods()) {
            if (!method.isSynthetic() && !method.isBridge()) {
                check(method, userClass, problems);
            }
        }
        return List.copyOf(problems.values());
    }

    private void check(Method method, Class<?> userClass, Map<String, GuardAnnotationException> problems) {
        try {
            get(method, userClass);
        } catch (GuardAnnotationException e) {
            problems.putIfAbsent(e.getMessage(), e);
        }
    }

    /**
     * Every limit seen so far resolved again, with the same layering as at start-up, over other settings (a
     * configuration refresh): nothing is registered or changed. The policies keep their names; a tier that the new
     * settings add or remove shows as a name that is new or missing.
     *
     * @throws GuardAnnotationException naming the annotation and the value when the new settings make a limit invalid
     */
    public List<ResolvedLimit> resolveAgain(Function<String, LimitSettings> instances,
                                            Function<String, LimitTiers> tiers, LimitSettings defaults) {
        var again = new GuardedMethodFactory(parser, new LimitSpecFactory(parser, instances, tiers, defaults,
                keyResolvers), breakers, bulkheads);
        Map<String, ResolvedLimit> byName = new LinkedHashMap<>();
        for (LimitedMethod seen : limited.values()) {
            for (LimitSpec spec : again.create(seen.method(), seen.specific(), seen.userClass()).limits()) {
                for (RateLimitPolicy policy : spec.policies()) {
                    ResolvedLimit first = byName.putIfAbsent(policy.name(),
                            new ResolvedLimit(policy, spec.shadow(), spec.site().describe(), spec.lease()));
                    if (first != null && (!first.policy().equals(policy) || !first.lease().equals(spec.lease()))) {
                        throw spec.site().error("name", spec.name(), "resolves to " + describe(policy, spec.lease())
                                        + " but " + first.site() + " resolves the same name to "
                                        + describe(first.policy(), first.lease()),
                                "Give both the same settings (guard.rate-limit.instances." + spec.name() + ".*).");
                    }
                }
            }
        }
        return List.copyOf(byName.values());
    }

    /** Whether each limit seen so far was resolved to shadow mode at start-up, by policy name. */
    public Map<String, Boolean> startupShadows() {
        Map<String, Boolean> shadows = new LinkedHashMap<>();
        for (GuardedMethod method : cache.values()) {
            for (LimitSpec spec : method.limits()) {
                spec.policies().forEach(policy -> shadows.putIfAbsent(policy.name(), spec.shadow()));
            }
        }
        return shadows;
    }

    /**
     * One limit's policy, shadow mode and lease size under some configuration.
     *
     * @param site  where it is declared, for messages
     * @param lease how its decisions lease ({@link LeaseSize#OFF}: exact)
     */
    public record ResolvedLimit(RateLimitPolicy policy, boolean shadow, String site, LeaseSize lease) {
    }

    private void registerPolicies(LimitSpec spec) {
        for (RateLimitPolicy policy : spec.policies()) {
            RegisteredPolicy first = policiesByName.putIfAbsent(policy.name(), new RegisteredPolicy(policy,
                    spec.lease(), spec.site()));
            if (first == null) {
                leaseListener.accept(policy.name(), spec.lease());
                policyListener.accept(policy);
            } else if (!first.policy().equals(policy) || !first.lease().equals(spec.lease())) {
                throw spec.site().error("name", spec.name(), "resolves "
                                + (policy.name().equals(spec.name()) ? "" : "tier " + policy.name() + " ") + "to "
                                + describe(policy, spec.lease())
                                + " but " + first.site().describe() + " resolves the same name to "
                                + describe(first.policy(), first.lease()),
                        "Give the two limits different names, or the same settings (guard.rate-limit.instances."
                                + spec.name() + ".* sets them for both).");
            }
        }
    }

    /**
     * {@code rate 5 per 60s, SLIDING_LOG, GLOBAL, SERVER time, FAIL_OPEN} (and {@code , lease auto} when it leases):
     * what two limits may disagree on.
     */
    private static String describe(RateLimitPolicy policy, LeaseSize lease) {
        String burst = policy.burst() == policy.rate() ? "" : " (burst " + policy.burst() + ")";
        return "rate " + policy.rate() + " per " + DurationFormat.compact(policy.interval()) + burst + ", "
                + policy.algorithm() + ", " + policy.scope() + ", " + policy.timeSource() + " time, "
                + policy.onBackendFailure() + (lease.off() ? "" : ", lease " + lease);
    }
}
