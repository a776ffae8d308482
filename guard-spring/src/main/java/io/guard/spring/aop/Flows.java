package io.guard.spring.aop;

import org.reactivestreams.Publisher;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * Kotlin's {@code Flow} seen as a Reactive Streams publisher and back, through the adapter Spring registers when
 * kotlinx-coroutines-reactor is on the class path (Guard checks that at start-up for every guarded Flow method). A
 * function that returns a {@code Flow} without suspending is guarded as a {@code Flux}: collecting the flow is
 * subscribing, cancelling its collector is cancelling.
 */
final class Flows {

    private static final String FLOW = "kotlinx.coroutines.flow.Flow";

    private Flows() {
    }

    /** The rest of the chain, with the method's {@code Flow} handed on as a publisher. */
    static Proceed publishing(Proceed call) {
        return () -> {
            Object flow = call.proceed();
            return flow == null ? null : Adapter.FLOW_ADAPTER.toPublisher(flow);
        };
    }

    static Object flow(Object publisher) {
        return Adapter.FLOW_ADAPTER.fromPublisher((Publisher<?>) publisher);
    }

    static boolean isFlow(Object value) {
        return Adapter.FLOW_TYPE != null && Adapter.FLOW_TYPE.isInstance(value);
    }

    static Publisher<?> publisher(Object flow) {
        return Adapter.FLOW_ADAPTER.toPublisher(flow);
    }

    /** Resolved on first use, which only a guarded Flow method (or its fallback) makes. */
    private static final class Adapter {

        static final Class<?> FLOW_TYPE = ClassUtils.isPresent(FLOW, Flows.class.getClassLoader())
                ? ClassUtils.resolveClassName(FLOW, Flows.class.getClassLoader()) : null;
        static final ReactiveAdapter FLOW_ADAPTER = FLOW_TYPE == null ? null
                : ReactiveAdapterRegistry.getSharedInstance().getAdapter(FLOW_TYPE);
    }
}
