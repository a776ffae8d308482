package io.guard.ratelimit.redis;

import io.guard.ratelimit.Algorithm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The one script every decision runs in: {@code decide.lua}, a dispatcher, with each algorithm's own file
 * ({@code token_bucket.lua}, {@code sliding_log.lua}, {@code fixed_window.lua}) put before it as a local function at
 * load time, so each algorithm is written once and runs the same code whether it decides alone, in a batch, or in an
 * all-or-nothing group.
 *
 * <p>A call of this script is an <em>entry</em>: one decision, or several limits decided all-or-nothing. Calls are
 * concatenative: the keys and arguments of several entries put one after the other are one call, whose reply is
 * their replies one after the other. That is what lets {@link ScriptBatches} turn a pipelined batch of decisions
 * into one script run per batch (per slot on a cluster), which saves Redis the fixed cost of each command.
 */
final class DecideScript {

    static final String NAME = "decide";

    /** Values per limit in a reply: allowed (1, 0, or -1 for an error), remaining, retryAfter, resetAfter, now. */
    static final int ROW = 5;

    /** Arguments of an entry before its first limit's own: the count of limits, then the file, key and argument counts. */
    static final int HEADER = 4;

    private DecideScript() {
    }

    /** The dispatcher with every algorithm before it, as one script. */
    static LuaScript load() {
        return withAlgorithms(NAME);
    }

    /** The script {@code guard/lua/<name>.lua} with every algorithm's file before it as a function (see above). */
    static LuaScript withAlgorithms(String name) {
        StringBuilder source = new StringBuilder("local algorithms = {}\n");
        for (Algorithm algorithm : Algorithm.values()) {
            String file = fileOf(algorithm);
            source.append("algorithms['").append(file).append("'] = function(KEYS, ARGV)\n")
                    .append(LuaScript.read(file)).append("\nend\n");
        }
        return LuaScript.of(name, source.append(LuaScript.read(name)).toString());
    }

    /** One limit of an entry: its algorithm, its keys and the arguments its file's header lists. */
    record Limit(Algorithm algorithm, List<String> keys, List<String> args) {
    }

    /** The keys of an entry deciding {@code limits} (one for a plain decision, several for all-or-nothing). */
    static List<String> keys(List<Limit> limits) {
        if (limits.size() == 1) {
            return limits.get(0).keys();
        }
        List<String> keys = new ArrayList<>();
        limits.forEach(limit -> keys.addAll(limit.keys()));
        return keys;
    }

    /** The arguments of an entry deciding {@code limits}, as {@code decide.lua}'s header lists them. */
    static List<String> args(List<Limit> limits) {
        int size = 1;
        for (Limit limit : limits) {
            size += 3 + limit.args().size();
        }
        List<String> args = new ArrayList<>(size);
        args.add(count(limits.size()));
        for (Limit limit : limits) {
            args.add(FILES[limit.algorithm().ordinal()]);
            args.add(count(limit.keys().size()));
            args.add(count(limit.args().size()));
            args.addAll(limit.args());
        }
        return args;
    }

    /** How many reply values the entry starting at {@code from} takes: its count of limits, then a row each. */
    static int entryLength(List<Object> reply, int from) {
        return 1 + ROW * Math.toIntExact(number(reply.get(from)));
    }

    /** Whether a reply of one or more entries admits anything (an allowed flag of 1 in any row). */
    static boolean admitsAny(List<Object> reply) {
        for (int from = 0; from < reply.size(); from += entryLength(reply, from)) {
            long limits = number(reply.get(from));
            for (int row = 0; row < limits; row++) {
                if (number(reply.get(from + 1 + ROW * row)) == 1) {
                    return true;
                }
            }
        }
        return false;
    }

    static long number(Object value) {
        return value instanceof Number n ? n.longValue() : Long.parseLong(value.toString());
    }

    /** {@code count} values from {@code from}, each read as {@link #number} reads one, in one pass over the reply. */
    static long[] numbers(List<Object> values, int from, int count) {
        long[] numbers = new long[count];
        for (int i = 0; i < count; i++) {
            numbers[i] = values.get(from + i) instanceof Number n ? n.longValue()
                    : Long.parseLong(values.get(from + i).toString());
        }
        return numbers;
    }

    private static String fileOf(Algorithm algorithm) {
        return algorithm.name().toLowerCase(Locale.ROOT);
    }

    /** The small counts of an entry, as the strings they are sent as (no new string per decision). */
    private static String count(int n) {
        return n < COUNTS.length ? COUNTS[n] : Integer.toString(n);
    }

    private static final String[] FILES = Arrays.stream(Algorithm.values()).map(DecideScript::fileOf)
            .toArray(String[]::new);
    private static final String[] COUNTS = IntStream.range(0, 16).mapToObj(Integer::toString).toArray(String[]::new);
}
