package io.guard.spring.method;

import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;

/**
 * How a guarded method delivers its outcome, which decides when permits are taken and when the outcome is recorded:
 * on return, when a stage completes, or when a publisher terminates.
 *
 * <p>A Kotlin {@code suspend} function is a {@link #MONO} (a {@link #FLUX} when it returns a {@code Flow}): Spring's
 * proxy runs its body as a {@code Mono} that the advice sees from {@code proceed()} and awaits whatever the advice
 * returns, so its outcome arrives when the coroutine ends, not when {@code proceed()} returns. A function that is not
 * suspending and returns a {@code Flow} is a {@link #FLOW}: guarded as a {@code Flux} and handed back as a
 * {@code Flow}.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public enum ReturnKind {
    SYNC, COMPLETION_STAGE, MONO, FLUX, FLOW;

    /** Classifies {@code method} as its callers see it (a suspend function by what it returns to Kotlin). */
    static ReturnKind of(Method method) {
        if (Coroutines.isSuspending(method)) {
            return Coroutines.returnsFlow(method) ? FLUX : MONO;
        }
        return of(method.getReturnType());
    }

    /** Classifies by name for Reactor and Kotlin types, so that this works (and loads nothing) without them. */
    static ReturnKind of(Class<?> returnType) {
        if (CompletionStage.class.isAssignableFrom(returnType)) {
            return COMPLETION_STAGE;
        }
        if (returnType.getName().equals(Coroutines.FLOW)) {
            return FLOW;
        }
        for (Class<?> c = returnType; c != null; c = c.getSuperclass()) {
            if (c.getName().equals("reactor.core.publisher.Mono")) {
                return MONO;
            }
            if (c.getName().equals("reactor.core.publisher.Flux")) {
                return FLUX;
            }
        }
        return SYNC;
    }
}
