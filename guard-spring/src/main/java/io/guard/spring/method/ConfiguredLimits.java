package io.guard.spring.method;

import io.guard.spring.ratelimit.LimitSettings;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Limits declared in configuration rather than on methods (URL-pattern routes, Spring Cloud Gateway routes): a
 * configuration refresh resolves each source again, as it does annotated methods, so that a changed
 * {@code guard.rate-limit.instances.*} reaches every limit of that name.
 *
 * <p>Internal: public only for the auto-configuration and the gateway module; not an API.
 */
public interface ConfiguredLimits {

    /**
     * Each limit resolved again with {@code instances} and {@code defaults} as a refresh has them; its key and
     * permits stay those of start-up.
     *
     * @throws GuardAnnotationException naming the limit's declaration when it would no longer be valid
     */
    List<GuardedMethods.ResolvedLimit> resolveAgain(Function<String, LimitSettings> instances, LimitSettings defaults);

    /** Each limit's shadow mode as start-up resolved it, by limit name. */
    Map<String, Boolean> startupShadows();
}
