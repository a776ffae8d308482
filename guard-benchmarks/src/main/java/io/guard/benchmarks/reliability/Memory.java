package io.guard.benchmarks.reliability;

import io.guard.test.redis.RedisEndpoint;

/** Reads Redis's INFO fields the reliability programs report. */
final class Memory {

    private Memory() {
    }

    /** {@code used_memory} less client buffers, which follow the client's pipelining rather than the data. */
    static long used(RedisEndpoint redis) {
        String info = (String) redis.call("INFO", "memory");
        return Long.parseLong(field(info, "used_memory")) - Long.parseLong(field(info, "mem_clients_normal"));
    }

    static String field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new IllegalStateException("INFO has no " + name);
    }
}
