package io.guard.spring.autoconfigure;

import io.guard.spring.ratelimit.RateLimitDecisionSink;
import io.guard.spring.ratelimit.RateLimitDecisionSinks;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.function.SingletonSupplier;

import java.util.List;
import java.util.function.Supplier;

/** Asks each registered {@link RateLimitDecisionSinks} (one per web stack) in order; the first that knows wins. */
final class CompositeDecisionSinks implements RateLimitDecisionSinks {

    private final Supplier<List<RateLimitDecisionSinks>> delegates;

    CompositeDecisionSinks(ObjectProvider<RateLimitDecisionSinks> provider) {
        this.delegates = SingletonSupplier.of(() -> provider.orderedStream().toList());
    }

    @Override
    public RateLimitDecisionSink current() {
        for (RateLimitDecisionSinks sinks : delegates.get()) {
            RateLimitDecisionSink sink = sinks.current();
            if (sink != RateLimitDecisionSink.NONE) {
                return sink;
            }
        }
        return RateLimitDecisionSink.NONE;
    }
}
