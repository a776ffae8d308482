package io.guard.spring.autoconfigure.redis;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.util.ClassUtils;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Explains the start-up failure an application meets when the {@code org.redisson:redisson} jar Guard uses arrives
 * next to Spring's cache abstraction: the jar registers a JCache provider, Spring Boot prefers JCache to Caffeine
 * and the others, and Redisson's provider then refuses to start without its own configuration file
 * ({@code Default configuration hasn't been specified!}). Guard never uses that provider; the fix is to tell Boot
 * which cache the application meant.
 */
class RedissonJCacheFailureAnalyzer implements FailureAnalyzer {

    static final String REDISSON_MESSAGE = "Default configuration hasn't been specified!";

    /** Cache libraries Boot would otherwise have picked, in Boot's own order of preference after JCache. */
    private static final Map<String, String> CACHE_TYPES = cacheTypes();

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        return redissonJCacheCause(failure).map(cause -> new FailureAnalysis(
                "Spring Boot's cache auto-configuration chose Redisson's JCache provider, which came with the "
                        + "org.redisson:redisson jar, and that provider has no configuration ("
                        + REDISSON_MESSAGE + "). Guard does not use Redisson's JCache; the application's cache "
                        + "was switched by the new jar.",
                action(), cause)).orElse(null);
    }

    private static Optional<Throwable> redissonJCacheCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(REDISSON_MESSAGE) && thrownByRedissonJCache(t)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    private static boolean thrownByRedissonJCache(Throwable t) {
        return Stream.of(t.getStackTrace()).anyMatch(frame -> frame.getClassName().startsWith("org.redisson.jcache"));
    }

    private static String action() {
        ClassLoader loader = RedissonJCacheFailureAnalyzer.class.getClassLoader();
        List<String> present = CACHE_TYPES.entrySet().stream()
                .filter(entry -> ClassUtils.isPresent(entry.getKey(), loader))
                .map(Map.Entry::getValue).toList();
        String type = present.isEmpty() ? "simple" : present.get(0);
        return "Keep the cache the application had: set spring.cache.type=" + type
                + (present.isEmpty() ? " (no other cache library is on the class path)"
                        : " (" + type + " is on the class path)")
                + ", or spring.cache.jcache.provider to the JCache provider you use. If the application does not "
                + "use JCache itself, exclude javax.cache:cache-api from the org.redisson:redisson dependency "
                + "(see Guard's README, \"Add Guard to your application\").";
    }

    private static Map<String, String> cacheTypes() {
        Map<String, String> types = new LinkedHashMap<>();
        types.put("com.hazelcast.core.HazelcastInstance", "hazelcast");
        types.put("org.infinispan.spring.embedded.provider.SpringEmbeddedCacheManager", "infinispan");
        types.put("com.github.benmanes.caffeine.cache.Caffeine", "caffeine");
        types.put("org.cache2k.Cache2kBuilder", "cache2k");
        return types;
    }
}
