package io.guard.spring.method;

import java.util.concurrent.CompletionStage;

/**
 * How a guarded method delivers its outcome, which decides when permits are taken and when the outcome is recorded:
 * on return, when a stage completes, or when a publisher terminates.
 *
 * <p>Internal: public only because Guard's {@code aop} package uses it; not an API.
 */
public enum ReturnKind {
    SYNC, COMPLETION_STAGE, MONO, FLUX;

    /** Classifies by name for Reactor types, so that this works (and loads nothing) without Reactor. */
    static ReturnKind of(Class<?> returnType) {
        if (CompletionStage.class.isAssignableFrom(returnType)) {
            return COMPLETION_STAGE;
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

    boolean reactive() {
        return this == MONO || this == FLUX;
    }
}
