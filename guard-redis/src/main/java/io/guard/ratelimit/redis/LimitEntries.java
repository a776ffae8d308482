package io.guard.ratelimit.redis;

import io.guard.ratelimit.EmissionInterval;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The key layout and the scripts' arguments, in one place so that decisions, inspections and resets agree on them.
 * A limit's keys are {@code <prefix>{<limiter>:<key>}:<suffix>}, with {@code :<instance>} after the suffix for
 * {@link Scope#PER_INSTANCE} limits: the hash tag puts every key of one limit in one Redis Cluster slot. Each
 * algorithm's arguments come in the order its file's header lists them.
 */
final class LimitEntries {

    /** Keys outlive the last record by this much, so that rounding to milliseconds never drops a live record. */
    private static final long SERVER_MARGIN_MILLIS = 1;
    /** Callers' clocks may disagree with each other and with Redis's expiry clock: keep client-time keys longer. */
    private static final long CLIENT_MARGIN_MILLIS = 1_000;

    private final String prefix;
    private final String instanceId;

    /**
     * @throws IllegalArgumentException if the prefix contains {@code '{'} or {@code '}'} (it would move the hash tag)
     *                                  or the instance id is blank
     */
    LimitEntries(String keyPrefix, String instanceId) {
        if (instanceId == null || instanceId.isBlank()) {
            throw new IllegalArgumentException("instance id must not be blank but was '" + instanceId + "'");
        }
        this.prefix = checkedPrefix(keyPrefix);
        this.instanceId = RateLimitKeys.encode(instanceId);
    }

    /**
     * {@code keyPrefix}, which every Guard key starts with, checked.
     *
     * @throws IllegalArgumentException if it contains {@code '{'} or {@code '}'} (it would move the hash tag)
     */
    static String checkedPrefix(String keyPrefix) {
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        if (keyPrefix.indexOf('{') >= 0 || keyPrefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("Redis key prefix must not contain '{' or '}' but was '" + keyPrefix + "'");
        }
        return keyPrefix;
    }

    /**
     * One limit's part of a {@link DecideScript} entry for the limit {@code tag} ({@link RateLimitKeys#hashTag}):
     * its algorithm, keys and arguments; {@code peek} appends the flag after which the algorithm writes nothing.
     */
    DecideScript.Limit limit(RateLimitPolicy policy, String tag, long permits, long sent, boolean peek) {
        boolean clientTime = policy.timeSource() == TimeSource.CLIENT;
        String now = clientTime ? Long.toString(sent) : "";
        long margin = clientTime ? CLIENT_MARGIN_MILLIS : SERVER_MARGIN_MILLIS;
        long intervalMicros = TimeUnit.MICROSECONDS.convert(policy.interval());
        List<String> args = switch (policy.algorithm()) {
            case TOKEN_BUCKET -> {
                EmissionInterval emission = EmissionInterval.of(policy);
                yield List.of(now, Long.toString(emission.micros()), Long.toString(emission.parts()),
                        Long.toString(permits), Long.toString(policy.burst()), Long.toString(margin));
            }
            case SLIDING_LOG, FIXED_WINDOW -> List.of(now, Long.toString(policy.rate()),
                    Long.toString(intervalMicros), Long.toString(permits), Long.toString(margin));
        };
        if (peek) {
            args = new ArrayList<>(args);
            args.add("1");
        }
        return new DecideScript.Limit(policy.algorithm(), keys(policy, tag), args);
    }

    /** The Redis keys of the limit {@code tag} under {@code policy}'s algorithm, in the order its script expects. */
    List<String> keys(RateLimitPolicy policy, String tag) {
        return switch (policy.algorithm()) {
            case SLIDING_LOG -> List.of(key(policy, tag, "log"), key(policy, tag, "state"));
            case TOKEN_BUCKET -> List.of(key(policy, tag, "tat"));
            case FIXED_WINDOW -> List.of(key(policy, tag, "window"));
        };
    }

    /**
     * The keys any algorithm may have written for the limit {@code tag} in {@code policy}'s scope: a reset deletes
     * them all, so that a quota is given back whatever algorithm counted it before a change.
     */
    List<String> everyKey(RateLimitPolicy policy, String tag) {
        return List.of(key(policy, tag, "log"), key(policy, tag, "state"), key(policy, tag, "tat"),
                key(policy, tag, "window"));
    }

    /** The pub/sub channel on which resets reach every limiter with the same prefix. */
    String resetChannel() {
        return prefix + "resets";
    }

    private String key(RateLimitPolicy policy, String tag, String suffix) {
        String key = prefix + tag + ":" + suffix;
        return policy.scope() == Scope.PER_INSTANCE ? key + ":" + instanceId : key;
    }
}
