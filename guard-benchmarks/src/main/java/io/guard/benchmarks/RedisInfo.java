package io.guard.benchmarks;

import io.guard.test.redis.RedisEndpoint;

/** What the load programs read from a Redis server's {@code INFO}: its CPU time (user + system, every thread) and memory. */
public final class RedisInfo {

    private RedisInfo() {
    }

    /** {@code used_cpu_sys + used_cpu_user}, in microseconds. */
    public static double cpuMicros(RedisEndpoint redis) {
        return field(redis, "cpu", "used_cpu_sys") * 1e6 + field(redis, "cpu", "used_cpu_user") * 1e6;
    }

    /** {@code used_memory}, in bytes. */
    public static long usedMemory(RedisEndpoint redis) {
        return (long) field(redis, "memory", "used_memory");
    }

    /** Script runs so far: the calls of {@code EVALSHA} and {@code EVAL} in {@code INFO commandstats}. */
    public static long scriptRuns(RedisEndpoint redis) {
        long runs = 0;
        for (String line : redis.call("INFO", "commandstats").toString().split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                String calls = line.substring(line.indexOf("calls=") + 6);
                runs += Long.parseLong(calls.substring(0, calls.indexOf(',')));
            }
        }
        return runs;
    }

    private static double field(RedisEndpoint redis, String section, String name) {
        for (String line : redis.call("INFO", section).toString().split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("no " + name + " in INFO " + section);
    }
}
