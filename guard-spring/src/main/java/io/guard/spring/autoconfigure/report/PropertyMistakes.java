package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.BreakerProperties;
import io.guard.spring.autoconfigure.CircuitBreakerConfigs;
import io.guard.spring.autoconfigure.CircuitBreakerProperties;
import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.autoconfigure.LimitInstanceProperties;
import io.guard.spring.autoconfigure.LimitProperties;
import io.guard.spring.autoconfigure.RateLimitProperties;
import io.guard.spring.autoconfigure.RateLimitRedisProperties;
import io.guard.breaker.CircuitBreakerConfig;
import io.guard.ratelimit.Algorithm;
import io.guard.spring.ratelimit.LimitSettings;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

import java.beans.PropertyDescriptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Finds every {@code guard.*} value that cannot work, all in one pass, so that three typos cost one restart and not
 * three. Each breaker and each limit is checked property by property against the core's own rules (the core's
 * message says what is allowed); a breaker whose values are each fine but clash (a backoff cap below the wait) is
 * reported under its prefix. What only the annotation can complete (a limit's rate from {@code @RateLimit}, a token
 * bucket's burst against that rate) is checked with the annotation.
 *
 * <p>Internal: public for the auto-configuration (the routes' mistakes, the configuration refresh); not an API.
 */
public final class PropertyMistakes {

    /**
     * @param property the full property name, e.g. {@code guard.rate-limit.instances.search.rate}
     * @param value    the bound value; null when {@code reason} names it itself, or for a clash between several values
     * @param reason   what is wrong and what is allowed
     * @param action   what to do about it, when the reason alone does not say; else null
     */
    public record Mistake(String property, Object value, String reason, String action) {

        Mistake(String property, Object value, String reason) {
            this(property, value, reason, null);
        }
    }

    /** What a single property is judged against: a valid limit in every other respect. */
    private static final LimitSettings ONE_PER_SECOND = new LimitSettings(1L, Duration.ofSeconds(1),
            Algorithm.SLIDING_LOG, null, null, null, null, null, null, null, null, null, null, null);

    private static final String BREAKERS = "guard.circuit-breaker.";
    private static final String LIMITS = "guard.rate-limit.";

    private PropertyMistakes() {
    }

    public static List<Mistake> in(GuardProperties properties) {
        List<Mistake> found = new ArrayList<>();
        CircuitBreakerProperties breakers = properties.getCircuitBreaker();
        CircuitBreakerConfig defaults = breaker(CircuitBreakerConfig.ofDefaults(), breakers.getDefaults(),
                new BreakerProperties(), BREAKERS + "defaults", found);
        CircuitBreakerConfig base = defaults != null ? defaults : CircuitBreakerConfig.ofDefaults();
        breakers.getInstances().forEach((name, instance) ->
                breaker(base, instance, breakers.getDefaults(), BREAKERS + "instances." + name, found));
        if (breakers.getMaxBreakers() < 1) {
            found.add(new Mistake(BREAKERS + "max-breakers", breakers.getMaxBreakers(), "must be at least 1"));
        }
        BulkheadMistakes.serverLimit(properties, found);
        if (!breakers.getFleet().isEnabled()) {
            shareOpenWithoutFleet(breakers.getDefaults(), BREAKERS + "defaults", found);
            breakers.getInstances().forEach((name, instance) ->
                    shareOpenWithoutFleet(instance, BREAKERS + "instances." + name, found));
        }
        Duration fleetPoll = breakers.getFleet().getPollInterval();
        if (fleetPoll == null || fleetPoll.isZero() || fleetPoll.isNegative()) {
            found.add(new Mistake(BREAKERS + "fleet.poll-interval", fleetPoll,
                    "must be positive, such as 5s: it bounds how long an instance may miss a fleet-wide command"));
        }
        RateLimitProperties limits = properties.getRateLimit();
        limit(limits.getDefaults(), LIMITS + "defaults", found);
        limits.getInstances().forEach((name, instance) -> limit(instance, LIMITS + "instances." + name, found));
        redisSettings(limits.getRedis(), found);
        Duration redisTimeout = limits.getRedis().getTimeout();
        replicaWaitTimeout(limits.getDefaults(), LIMITS + "defaults", redisTimeout, found);
        limits.getInstances().forEach((name, instance) -> replicaWaitTimeout(instance, LIMITS + "instances." + name,
                redisTimeout, found));
        Duration poll = limits.getOverridePollInterval();
        if (poll == null || poll.isZero() || poll.isNegative()) {
            found.add(new Mistake(LIMITS + "override-poll-interval", poll,
                    "must be positive, such as 5s: it bounds how long an instance may decide under an old override"));
        }
        if (properties.getEvents().getBufferSize() < 1) {
            found.add(new Mistake("guard.events.buffer-size", properties.getEvents().getBufferSize(),
                    "must be at least 1"));
        }
        return found;
    }

    private static void shareOpenWithoutFleet(BreakerProperties breaker, String prefix, List<Mistake> found) {
        if (Boolean.TRUE.equals(breaker.getShareOpen())) {
            found.add(new Mistake(prefix + ".share-open", true, "needs " + BREAKERS
                    + "fleet.enabled=true: an opening is shared through fleet-wide control"));
        }
    }

    /** The breaker's configuration, or null when it cannot be built (its mistakes are then in {@code found}). */
    private static CircuitBreakerConfig breaker(CircuitBreakerConfig base, BreakerProperties properties,
                                                BreakerProperties inherited, String prefix, List<Mistake> found) {
        BulkheadMistakes.breaker(properties, prefix, found);
        try {
            return CircuitBreakerConfigs.build(base, properties, inherited);
        } catch (IllegalArgumentException | NullPointerException whole) {
            int before = found.size();
            eachSetProperty(properties, BreakerProperties::new, (name, value, single) -> {
                try {
                    CircuitBreakerConfigs.build(base, single, inherited);
                } catch (IllegalArgumentException | NullPointerException e) {
                    found.add(new Mistake(prefix + "." + name, value, e.getMessage()));
                }
            });
            if (found.size() == before) {
                found.add(new Mistake(prefix, null, whole.getMessage()));
            }
            return null;
        }
    }

    private static void limit(LimitProperties properties, String prefix, List<Mistake> found) {
        eachSetProperty(properties, LimitProperties::new, (name, value, single) -> {
            LimitSettings settings = single.toSettings();
            String limiter = prefix.substring(prefix.lastIndexOf('.') + 1);
            try {
                settings.orElse(ONE_PER_SECOND).toPolicy(limiter); // the one path settings take to a policy
                settings.leaseSize();
            } catch (IllegalArgumentException e) {
                found.add(new Mistake(prefix + "." + name, value,
                        e.getMessage().replace("rate limiter '" + limiter + "': ", "")));
            }
        });
        burstOfAnotherAlgorithm(properties.getAlgorithm(), properties.getBurst(), prefix, found);
        if (properties instanceof LimitInstanceProperties instance) {
            instance.getTiers().forEach((tier, settings) -> burstOfAnotherAlgorithm(settings.getAlgorithm() != null
                    ? settings.getAlgorithm() : properties.getAlgorithm(), settings.getBurst(),
                    prefix + ".tiers." + tier, found));
        }
    }

    /** A burst set beside an algorithm that has none would be ignored without a word. */
    private static void burstOfAnotherAlgorithm(Algorithm algorithm, Long burst, String prefix, List<Mistake> found) {
        if (burst != null && algorithm != null && algorithm != Algorithm.TOKEN_BUCKET) {
            found.add(new Mistake(prefix + ".burst", burst, "applies to TOKEN_BUCKET only, but " + prefix
                    + ".algorithm is " + algorithm + ", which would ignore it",
                    "Remove " + prefix + ".burst, or set " + prefix + ".algorithm=token-bucket."));
        }
    }

    /**
     * Checked whatever the backend, so that a bad value is found before the day the backend becomes Redis. Worded as
     * they were when the beans that read them stopped start-up on their own.
     */
    private static void redisSettings(RateLimitRedisProperties redis, List<Mistake> found) {
        Duration timeout = redis.getTimeout();
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            found.add(new Mistake(LIMITS + "redis.timeout", null, "is '" + timeout
                    + "' but must be positive: it bounds how long a decision waits for Redis",
                    "Set a positive duration, e.g. guard.rate-limit.redis.timeout=250ms (the default)."));
        }
        if (redis.getMaxBatch() < 1) {
            found.add(new Mistake(LIMITS + "redis.max-batch", redis.getMaxBatch(),
                    "must be at least 1: it is the most decisions sent to Redis in one pipelined batch",
                    "Set guard.rate-limit.redis.max-batch=64 (the default), or 1 to send each decision alone."));
        }
        Duration warmUp = redis.getWarmUpTimeout();
        if (warmUp == null || warmUp.isNegative()) {
            found.add(new Mistake(LIMITS + "redis.warm-up-timeout", null, "is '" + warmUp
                    + "' but must be zero or positive: it bounds how long start-up waits for Redis",
                    "Set a duration, e.g. guard.rate-limit.redis.warm-up-timeout=5s (the default), or 0 not to wait."));
        }
        Integer database = redis.getDatabase();
        if (database != null && database < 0) {
            found.add(new Mistake(LIMITS + "redis.database", database,
                    "must not be negative: it is the index of the Redis database (SELECT) that holds Guard's keys",
                    "Set a database index such as guard.rate-limit.redis.database=1, or leave it out to use the "
                            + "application's database."));
        }
    }

    /**
     * A WAIT for replicas must end before the decision's own bound, and Redis reads a 0 ms WAIT as "forever"; a
     * negative number of replicas is caught with the other limit settings.
     */
    private static void replicaWaitTimeout(LimitProperties properties, String prefix, Duration redisTimeout,
                                           List<Mistake> found) {
        Duration timeout = properties.getWaitForReplicasTimeout();
        if (timeout == null) {
            return;
        }
        if (timeout.toMillis() < 1) {
            found.add(new Mistake(prefix + ".wait-for-replicas-timeout", timeout,
                    "must be at least 1ms: Redis reads a WAIT of 0 ms as waiting forever"));
        } else if (redisTimeout != null && redisTimeout.compareTo(Duration.ZERO) > 0
                && timeout.compareTo(redisTimeout) >= 0) {
            found.add(new Mistake(prefix + ".wait-for-replicas-timeout", timeout, "must be shorter than "
                    + "guard.rate-limit.redis.timeout (" + redisTimeout.toMillis() + "ms), or every decision that "
                    + "waits for replicas in vain times out instead of being answered by on-backend-failure"));
        }
    }

    /**
     * Calls {@code check} once per property that {@code source} sets, with a fresh object that sets only that one:
     * each value is judged on its own, so one bad value cannot hide another. Found by reflection, so a property added
     * later is checked too.
     */
    private static <T> void eachSetProperty(T source, Supplier<T> blank, SingleCheck<T> check) {
        BeanWrapper wrapper = new BeanWrapperImpl(source);
        for (PropertyDescriptor descriptor : wrapper.getPropertyDescriptors()) {
            if (descriptor.getReadMethod() == null || descriptor.getWriteMethod() == null) {
                continue;
            }
            Object value = wrapper.getPropertyValue(descriptor.getName());
            T single = blank.get();
            BeanWrapper target = new BeanWrapperImpl(single);
            // A subclass's own properties (an instance's tiers) are not the blank's: those have checks of their own.
            if (value != null && target.isWritableProperty(descriptor.getName())) {
                target.setPropertyValue(descriptor.getName(), value);
                check.accept(DataObjectPropertyName.toDashedForm(descriptor.getName()), value, single);
            }
        }
    }

    private interface SingleCheck<T> {
        void accept(String dashedName, Object value, T single);
    }
}
