package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;
import io.guard.ratelimit.EmissionInterval;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.Scope;
import io.guard.ratelimit.TimeSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

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

    /** Policies whose shape is kept; more are only seen when limits are replaced many times at run time. */
    private static final int MAX_SHAPES = 1_024;
    /** Permit counts sent as shared strings rather than a new one per decision. */
    private static final String[] SMALL_PERMITS = IntStream.range(0, 16).mapToObj(Integer::toString)
            .toArray(String[]::new);

    private final String prefix;
    private final String instanceId;
    private final Map<RateLimitPolicy, Shape> shapes = new ConcurrentHashMap<>();
    /** The shape used last: most decisions in a row are of one policy, found without hashing it. */
    private volatile Shape last;

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
        Shape shape = shape(policy);
        List<String> args = Arrays.asList(shape.arguments(peek ? shape.peekAlgorithmArgs : shape.algorithmArgs, 0,
                sent, permits));
        return new DecideScript.Limit(policy.algorithm(), shape.keys(prefix, tag), args);
    }

    /**
     * The keys and arguments of a {@link DecideScript} entry deciding one limit, as {@link DecideScript#keys} and
     * {@link DecideScript#args} make them of {@link #limit}, built from what the policy's entries share.
     */
    Entry entry(RateLimitPolicy policy, String tag, long permits, long sent, boolean peek) {
        Shape shape = last;
        if (shape == null || shape.policy != policy) {
            shape = shape(policy);
        }
        return new Entry(shape.keys(prefix, tag), Arrays.asList(shape.arguments(
                peek ? shape.peekEntryArgs : shape.entryArgs, DecideScript.HEADER, sent, permits)));
    }

    /**
     * The entry that charges a TOKEN_BUCKET {@code permits} after the call ({@code token_bucket.lua}'s charge mode):
     * a decision's entry with the mode flag {@code "c"} appended and the permits, signed, filled in.
     */
    Entry chargeEntry(RateLimitPolicy policy, String tag, long permits, long sent) {
        Shape shape = shape(policy);
        String[] args = shape.arguments(shape.chargeEntryArgs, DecideScript.HEADER, sent, 0);
        args[DecideScript.HEADER + Shape.PERMITS] = Long.toString(permits); // may be negative: a refund
        return new Entry(shape.keys(prefix, tag), Arrays.asList(args));
    }

    /** The keys and arguments of a script call; fields, read once each on the way to the script call. */
    static final class Entry {
        final List<String> keys;
        final List<String> args;

        Entry(List<String> keys, List<String> args) {
            this.keys = keys;
            this.args = args;
        }
    }

    /** What the entries of {@code policy} share, worked out on its first decision rather than on every one. */
    private Shape shape(RateLimitPolicy policy) {
        Shape last = this.last;
        if (last != null && last.policy == policy) {
            return last;
        }
        Shape shape = shapes.get(policy);
        if (shape == null) {
            if (shapes.size() >= MAX_SHAPES) {
                shapes.clear(); // policies replaced many times over (live overrides): keep only those in use
            }
            shape = shapes.computeIfAbsent(policy, this::shapeOf);
        }
        this.last = shape;
        return shape;
    }

    private Shape shapeOf(RateLimitPolicy policy) {
        boolean clientTime = policy.timeSource() == TimeSource.CLIENT;
        String margin = Long.toString(clientTime ? CLIENT_MARGIN_MILLIS : SERVER_MARGIN_MILLIS);
        String[] args = switch (policy.algorithm()) {
            case TOKEN_BUCKET -> {
                EmissionInterval emission = EmissionInterval.of(policy);
                yield new String[] {"", Long.toString(emission.micros()), Long.toString(emission.parts()), "",
                        Long.toString(policy.burst()), margin};
            }
            case SLIDING_LOG, FIXED_WINDOW -> new String[] {"", Long.toString(policy.rate()),
                    Long.toString(TimeUnit.MICROSECONDS.convert(policy.interval())), "", margin};
        };
        String instance = policy.scope() == Scope.PER_INSTANCE ? ":" + instanceId : "";
        String[] suffixes = switch (policy.algorithm()) {
            case SLIDING_LOG -> new String[] {":log" + instance, ":state" + instance};
            case TOKEN_BUCKET -> new String[] {":tat" + instance};
            case FIXED_WINDOW -> new String[] {":window" + instance};
        };
        return new Shape(policy, clientTime, args, suffixes);
    }

    /** The Redis keys of the limit {@code tag} under {@code policy}'s algorithm, in the order its script expects. */
    List<String> keys(RateLimitPolicy policy, String tag) {
        return shape(policy).keys(prefix, tag);
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

    /**
     * The constant part of a policy's entries: its algorithm's arguments with the time (sent only on client time)
     * and the permits left blank, alone and as a one-limit entry (each also with the peek flag), and the suffixes
     * of its keys.
     */
    private static final class Shape {
        /** Where an algorithm's arguments have the time and the permits (see each algorithm's file header). */
        private static final int NOW = 0;
        private static final int PERMITS = 3;

        final RateLimitPolicy policy;
        final boolean clientTime;
        final String[] algorithmArgs;
        final String[] peekAlgorithmArgs;
        final String[] entryArgs;
        final String[] peekEntryArgs;
        final String[] chargeEntryArgs;
        final String[] suffixes;

        Shape(RateLimitPolicy policy, boolean clientTime, String[] algorithmArgs, String[] suffixes) {
            this.policy = policy;
            this.clientTime = clientTime;
            this.algorithmArgs = algorithmArgs;
            this.peekAlgorithmArgs = flagged(algorithmArgs, "1");
            this.suffixes = suffixes;
            this.entryArgs = oneLimitEntry(policy, suffixes, algorithmArgs);
            // An inspection of a bucket asks for the signed balance, to show a debt; a lease's peek does not.
            this.peekEntryArgs = oneLimitEntry(policy, suffixes, policy.algorithm() == Algorithm.TOKEN_BUCKET
                    ? flagged(algorithmArgs, "b") : peekAlgorithmArgs);
            this.chargeEntryArgs = oneLimitEntry(policy, suffixes, flagged(algorithmArgs, "c"));
        }

        private static String[] flagged(String[] args, String flag) {
            String[] flagged = Arrays.copyOf(args, args.length + 1);
            flagged[args.length] = flag;
            return flagged;
        }

        private static String[] oneLimitEntry(RateLimitPolicy policy, String[] suffixes, String[] args) {
            return DecideScript.args(List.of(new DecideScript.Limit(policy.algorithm(), Arrays.asList(suffixes),
                    Arrays.asList(args)))).toArray(String[]::new);
        }

        /** {@code template}, whose algorithm's arguments start at {@code from}, with the time and permits filled in. */
        String[] arguments(String[] template, int from, long sent, long permits) {
            String[] args = template.clone();
            if (clientTime) {
                args[from + NOW] = Long.toString(sent);
            }
            args[from + PERMITS] = permits < SMALL_PERMITS.length ? SMALL_PERMITS[(int) permits]
                    : Long.toString(permits);
            return args;
        }

        List<String> keys(String prefix, String tag) {
            String base = prefix + tag;
            return suffixes.length == 1 ? List.of(base + suffixes[0])
                    : List.of(base + suffixes[0], base + suffixes[1]);
        }
    }

    private String key(RateLimitPolicy policy, String tag, String suffix) {
        String key = prefix + tag + ":" + suffix;
        return policy.scope() == Scope.PER_INSTANCE ? key + ":" + instanceId : key;
    }
}
