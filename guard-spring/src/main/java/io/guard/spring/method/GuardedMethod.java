package io.guard.spring.method;

import java.lang.reflect.Method;
import java.util.List;

/**
 * Everything the aspects need to guard one method of one class, computed once.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 *
 * @param method     the most specific method, whose parameter names expressions use
 * @param limits     the limits a call must pass, in the order they are checked
 * @param breaker    the breaker, or null
 * @param returnKind how the method delivers its outcome
 * @param charged    whether some limit charges a cost after the call ({@link LimitSpec#cost()})
 */
public record GuardedMethod(Method method, List<LimitSpec> limits, BreakerSpec breaker, ReturnKind returnKind,
                            boolean charged) {

    static final GuardedMethod NONE = new GuardedMethod(null, List.of(), null, ReturnKind.SYNC);

    GuardedMethod(Method method, List<LimitSpec> limits, BreakerSpec breaker, ReturnKind returnKind) {
        this(method, limits, breaker, returnKind, limits.stream().anyMatch(limit -> limit.cost() != null));
    }

    boolean isGuarded() {
        return !limits.isEmpty() || breaker != null;
    }
}
