package io.guard.spring.bulkhead;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import io.guard.bulkhead.ConcurrencyLimit;

import java.util.concurrent.TimeUnit;

/**
 * Builds Netflix's limit for the settings and hands it to the bulkhead as a {@link ConcurrencyLimit}: the only class
 * that names the optional library, loaded only once {@link AdaptiveLimits} found it on the class path.
 */
final class NetflixLimits {

    private NetflixLimits() {
    }

    static ConcurrencyLimit create(AdaptiveLimitProperties p) {
        AdaptiveAlgorithm algorithm = AdaptiveLimits.algorithm(p);
        int initial = AdaptiveLimits.initialLimit(p);
        int max = AdaptiveLimits.maxLimit(p);
        Limit limit = switch (algorithm) {
            case GRADIENT2 -> {
                Gradient2Limit.Builder b = Gradient2Limit.newBuilder().initialLimit(initial)
                        .minLimit(AdaptiveLimits.minLimit(p)).maxConcurrency(max);
                if (p.getSmoothing() != null) {
                    b.smoothing(p.getSmoothing());
                }
                if (p.getRttTolerance() != null) {
                    b.rttTolerance(p.getRttTolerance());
                }
                yield b.build();
            }
            case VEGAS -> {
                VegasLimit.Builder b = VegasLimit.newBuilder().initialLimit(initial).maxConcurrency(max);
                if (p.getSmoothing() != null) {
                    b.smoothing(p.getSmoothing());
                }
                if (p.getBackoffRatio() != null) {
                    b.backoffRatio(p.getBackoffRatio());
                }
                yield b.build();
            }
            case AIMD -> {
                AIMDLimit.Builder b = AIMDLimit.newBuilder().initialLimit(initial)
                        .minLimit(AdaptiveLimits.minLimit(p)).maxLimit(max);
                if (p.getBackoffRatio() != null) {
                    b.backoffRatio(p.getBackoffRatio());
                }
                if (p.getTimeout() != null) {
                    b.timeout(p.getTimeout().toNanos(), TimeUnit.NANOSECONDS);
                }
                yield b.build();
            }
        };
        return new NetflixConcurrencyLimit(limit, algorithm.label());
    }

    /** Netflix's {@code Limit} has the shape of guard-core's: the bulkhead counts, the limit learns. */
    private record NetflixConcurrencyLimit(Limit delegate, String algorithm) implements ConcurrencyLimit {

        @Override
        public int limit() {
            return delegate.getLimit();
        }

        @Override
        public void onSample(long startNanos, long rttNanos, int inflight, boolean dropped) {
            delegate.onSample(startNanos, rttNanos, inflight, dropped);
        }
    }
}
