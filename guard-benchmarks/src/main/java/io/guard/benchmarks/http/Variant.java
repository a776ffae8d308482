package io.guard.benchmarks.http;

import java.util.ArrayList;
import java.util.List;

/**
 * One way to protect {@link ItemsApp}'s endpoint: its name in the results, the properties that select it and, for a
 * run against an earlier build of Guard, the class path it runs with ({@code null}: this program's own).
 */
record Variant(String name, List<String> properties, String classPath) {

    static List<Variant> all() {
        List<Variant> all = new ArrayList<>();
        all.add(new Variant("none", List.of("bench.variant=none", "guard.enabled=false"), null));
        all.add(new Variant("roundtrip", List.of("bench.variant=roundtrip", "guard.enabled=false"), null));
        for (String algorithm : List.of("TOKEN_BUCKET", "SLIDING_LOG", "FIXED_WINDOW")) {
            all.add(guard("lettuce", "spring-data", algorithm, false));
            all.add(guard("redisson", "redisson", algorithm, true));
        }
        // Leased decisions (issue 34): the same Lettuce TOKEN_BUCKET limit, each instance taking permits in batches.
        all.add(leased("auto"));
        all.add(leased("50"));
        // The limit alone, without the breaker, exact and leased: what leasing changes in the limit's own cost.
        all.add(limitOnly(guard("lettuce", "spring-data", "TOKEN_BUCKET", false)));
        all.add(limitOnly(leased("auto")));
        all.add(new Variant("r4j+bucket4j-lettuce", List.of("bench.variant=r4j-bucket4j", "guard.enabled=false"),
                null));
        all.add(new Variant("r4j+bucket4j-lettuce-batching", List.of("bench.variant=r4j-bucket4j",
                "bench.bucket4j.batching=true", "guard.enabled=false"), null));
        all.add(new Variant("r4j+redisson-RRateLimiter", List.of("bench.variant=r4j-redisson", "bench.redisson=true",
                "guard.enabled=false"), null));
        return all;
    }

    private static Variant guard(String name, String client, String algorithm, boolean redisson) {
        return new Variant("guard-" + name + "-" + algorithm, List.of("bench.variant=guard",
                "bench.redisson=" + redisson, "guard.rate-limit.backend=redis", "guard.rate-limit.redis.client=" + client,
                "guard.rate-limit.instances.items.algorithm=" + algorithm), null);
    }

    private static Variant leased(String lease) {
        Variant exact = guard("lettuce", "spring-data", "TOKEN_BUCKET", false);
        List<String> properties = new ArrayList<>(exact.properties());
        properties.add("guard.rate-limit.instances.items.lease=" + lease);
        return new Variant("guard-lettuce-TOKEN_BUCKET-lease-" + lease, properties, null);
    }

    /** {@code guard} without its {@code @CircuitBreaker}: named {@code guard-limit-...}. */
    private static Variant limitOnly(Variant guard) {
        List<String> properties = new ArrayList<>(guard.properties());
        properties.replaceAll(p -> p.equals("bench.variant=guard") ? "bench.variant=guard-limit" : p);
        return new Variant(guard.name().replaceFirst("^guard-", "guard-limit-"), properties, null);
    }

    /** Whether the variant limits requests: all but {@code none} and {@code roundtrip}. */
    boolean limits() {
        return !name.equals("none") && !name.equals("roundtrip");
    }

    boolean guard() {
        return name.startsWith("guard-");
    }

    /** The same variant on another build's class path, named with a suffix. */
    Variant on(String otherClassPath, String suffix) {
        return new Variant(name + suffix, properties, otherClassPath);
    }

    /** Every property the application gets: the variant's, the limit, the Redis port, quiet logs. */
    List<String> arguments(long rate, String interval, int redisPort) {
        List<String> arguments = new ArrayList<>(properties);
        arguments.addAll(List.of("bench.rate=" + rate, "bench.interval=" + interval,
                "guard.rate-limit.instances.items.rate=" + rate, "guard.rate-limit.instances.items.interval=" + interval,
                "spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redisPort,
                "spring.main.banner-mode=off", "logging.level.root=WARN"));
        return arguments;
    }
}
