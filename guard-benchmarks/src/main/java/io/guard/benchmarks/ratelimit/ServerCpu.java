package io.guard.benchmarks.ratelimit;

import io.guard.test.redis.RedisEndpoint;

/**
 * CPU time of Redis's main thread ({@code INFO cpu}): the work a run cost the server, networking included. Unlike
 * decisions per second, which on a small shared machine mostly measure the client, this is what bounds how many
 * decisions one Redis can serve.
 */
record ServerCpu(long micros) {

    static ServerCpu read(RedisEndpoint redis) {
        double seconds = 0;
        for (String line : redis.call("INFO", "cpu").toString().split("\r?\n")) {
            if (line.startsWith("used_cpu_sys_main_thread:") || line.startsWith("used_cpu_user_main_thread:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return new ServerCpu(Math.round(seconds * 1e6));
    }

    ServerCpu minus(ServerCpu before) {
        return new ServerCpu(micros - before.micros);
    }

    ServerCpu plus(ServerCpu other) {
        return new ServerCpu(micros + other.micros);
    }
}
