package io.guard.test.redis;

import java.util.HashMap;
import java.util.Map;

/**
 * What a Redis server has counted at one moment ({@code INFO all}), for tests that check what a client sent it: how
 * many connections it accepted, how often each command ran, how many scripts it holds. Read it before and after the
 * step under test and compare; the reading itself is one more connection and one more {@code INFO}.
 */
public final class RedisCounters {

    private final Map<String, String> fields;

    private RedisCounters(Map<String, String> fields) {
        this.fields = fields;
    }

    public static RedisCounters read(RedisEndpoint redis) {
        Map<String, String> fields = new HashMap<>();
        for (String line : ((String) redis.call("INFO", "all")).lines().toList()) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return new RedisCounters(fields);
    }

    /** Connections the server accepted since it started ({@code total_connections_received}). */
    public long connectionsReceived() {
        return number("total_connections_received");
    }

    /** Scripts in the server's script cache ({@code number_of_cached_scripts}). */
    public long cachedScripts() {
        return number("number_of_cached_scripts");
    }

    /**
     * How often {@code command} ran, its subcommands included ({@code "script"} counts {@code SCRIPT LOAD} and
     * {@code SCRIPT EXISTS}); {@code "eval"} is {@code EVAL} alone, not {@code EVALSHA}.
     */
    public long calls(String command) {
        String name = "cmdstat_" + command.toLowerCase();
        long calls = 0;
        for (Map.Entry<String, String> field : fields.entrySet()) {
            if (field.getKey().equals(name) || field.getKey().startsWith(name + "|")) {
                String stats = field.getValue();
                int from = stats.indexOf("calls=") + "calls=".length();
                calls += Long.parseLong(stats.substring(from, stats.indexOf(',', from)));
            }
        }
        return calls;
    }

    private long number(String field) {
        String value = fields.get(field);
        if (value == null) {
            throw new IllegalStateException("INFO has no field " + field + "; fields: " + fields.keySet());
        }
        return Long.parseLong(value);
    }
}
