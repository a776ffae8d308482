package io.guard.benchmarks.http;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.lettuce.core.RedisClient;
import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application {@link HttpLoad} measures: one trivial endpoint, {@code GET /items/{id}?user=}, protected per user
 * by what {@code bench.variant} names. {@code none}: nothing; {@code guard}: Guard's {@code @RateLimit} and
 * {@code @CircuitBreaker} (client and algorithm from Guard's own properties); {@code r4j-bucket4j}: Resilience4j's
 * {@code @CircuitBreaker} and a Bucket4j bucket on Lettuce; {@code r4j-redisson}: Resilience4j's
 * {@code @CircuitBreaker} and Redisson's {@code RRateLimiter}. The limit is {@code bench.rate} per
 * {@code bench.interval} for every variant, written as each library's users write it. {@code GET /check/{id}?user=}
 * is the same endpoint limited to 5 per 60 s, for the correctness check.
 */
@SpringBootApplication
public class ItemsApp {

    public static void main(String[] args) {
        SpringApplication.run(ItemsApp.class, args);
    }

    static String item(long id) {
        return "{\"id\":" + id + ",\"name\":\"item " + id + "\"}";
    }

    @RestController
    @ConditionalOnProperty(name = "bench.variant", havingValue = "none")
    static class Unprotected {
        @GetMapping({"/items/{id}", "/check/{id}"})
        String item(@PathVariable long id, @RequestParam String user) {
            return ItemsApp.item(id);
        }
    }

    /**
     * Not a limiter: the floor any limiter in Redis pays, one round trip per request (a one-line script that counts
     * the user's requests) through the application's Spring Data Redis connection, waited for on the request thread.
     */
    @RestController
    @ConditionalOnProperty(name = "bench.variant", havingValue = "roundtrip")
    static class OneRoundTrip {
        private static final RedisScript<Long> COUNT = RedisScript.of("return redis.call('INCR', KEYS[1])",
                Long.class);
        private final StringRedisTemplate redis;

        OneRoundTrip(StringRedisTemplate redis) {
            this.redis = redis;
        }

        @GetMapping({"/items/{id}", "/check/{id}"})
        String item(@PathVariable long id, @RequestParam String user) {
            redis.execute(COUNT, List.of("roundtrip:" + user));
            return ItemsApp.item(id);
        }
    }

    /** Rate, interval and algorithm come from {@code guard.rate-limit.instances.items.*}. */
    @RestController
    @ConditionalOnProperty(name = "bench.variant", havingValue = "guard")
    static class Guarded {
        @GetMapping("/items/{id}")
        @RateLimit(name = "items", key = "#user")
        @CircuitBreaker(name = "items")
        String item(@PathVariable long id, @RequestParam String user) {
            return ItemsApp.item(id);
        }

        /** The correctness check: 5 per 60 s. */
        @GetMapping("/check/{id}")
        @RateLimit(name = "check", key = "#user", rate = 5, interval = "60s")
        @CircuitBreaker(name = "items")
        String check(@PathVariable long id, @RequestParam String user) {
            return ItemsApp.item(id);
        }
    }

    /**
     * The same limit without the breaker: what the rate limit alone costs, for comparing its exact and leased modes
     * (a breaker's cost is the same in both).
     */
    @RestController
    @ConditionalOnProperty(name = "bench.variant", havingValue = "guard-limit")
    static class LimitedOnly {
        @GetMapping("/items/{id}")
        @RateLimit(name = "items", key = "#user")
        String item(@PathVariable long id, @RequestParam String user) {
            return ItemsApp.item(id);
        }

        /** The correctness check: 5 per 60 s. */
        @GetMapping("/check/{id}")
        @RateLimit(name = "check", key = "#user", rate = 5, interval = "60s")
        String check(@PathVariable long id, @RequestParam String user) {
            return ItemsApp.item(id);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "bench.variant", havingValue = "r4j-bucket4j")
    static class Bucket4jOnLettuce {
        @Bean(destroyMethod = "shutdown")
        RedisClient bucket4jLettuceClient(@Value("${spring.data.redis.port}") int port) {
            return RedisClient.create("redis://127.0.0.1:" + port);
        }

        @Bean
        ProxyManager<byte[]> bucket4jBuckets(RedisClient client) {
            return Bucket4jLettuce.casBasedBuilder(client).build();
        }

    }

    @RestController
    @ConditionalOnProperty(name = "bench.variant", havingValue = "r4j-bucket4j")
    static class Bucket4jItems {
        private final ProxyManager<byte[]> buckets;
        private final BucketConfiguration configuration;
        private final BucketConfiguration check;
        private final boolean batching;
        private final Map<String, Bucket> batched = new ConcurrentHashMap<>();

        Bucket4jItems(ProxyManager<byte[]> buckets, @Value("${bench.rate}") long rate,
                      @Value("${bench.interval}") Duration interval,
                      @Value("${bench.bucket4j.batching:false}") boolean batching) {
            this.buckets = buckets;
            this.batching = batching;
            this.configuration = configuration(rate, interval);
            this.check = configuration(5, Duration.ofSeconds(60));
        }

        private static BucketConfiguration configuration(long rate, Duration interval) {
            return BucketConfiguration.builder()
                    .addLimit(limit -> limit.capacity(rate).refillGreedy(rate, interval)).build();
        }

        @GetMapping("/items/{id}")
        @io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker(name = "items")
        ResponseEntity<String> item(@PathVariable long id, @RequestParam String user) {
            return take("items:" + user, configuration, id);
        }

        @GetMapping("/check/{id}")
        @io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker(name = "items")
        ResponseEntity<String> check(@PathVariable long id, @RequestParam String user) {
            return take("check:" + user, check, id);
        }

        private ResponseEntity<String> take(String name, BucketConfiguration limit, long id) {
            if (!bucket(name, limit).tryConsume(1)) {
                return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).build();
            }
            return ResponseEntity.ok(ItemsApp.item(id));
        }

        /**
         * Without batching a proxy per call, as Bucket4j's examples write it; with Bucket4j's batching optimization
         * the proxy is kept per key, since the optimization merges the requests that meet on one proxy object.
         */
        private Bucket bucket(String name, BucketConfiguration limit) {
            byte[] key = name.getBytes(StandardCharsets.UTF_8);
            if (!batching) {
                return buckets.builder().build(key, () -> limit);
            }
            return batched.computeIfAbsent(name, each -> buckets.builder()
                    .withOptimization(Optimizations.batching()).build(key, () -> limit));
        }
    }

    /** One {@code RRateLimiter} per user, its rate set once (the object kept, to spare Redisson's set-up). */
    @RestController
    @ConditionalOnProperty(name = "bench.variant", havingValue = "r4j-redisson")
    static class RedissonItems {
        private final RedissonClient redisson;
        private final long rate;
        private final Duration interval;
        private final Map<String, RRateLimiter> limiters = new ConcurrentHashMap<>();

        RedissonItems(RedissonClient redisson, @Value("${bench.rate}") long rate,
                      @Value("${bench.interval}") Duration interval) {
            this.redisson = redisson;
            this.rate = rate;
            this.interval = interval;
        }

        @GetMapping("/items/{id}")
        @io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker(name = "items")
        ResponseEntity<String> item(@PathVariable long id, @RequestParam String user) {
            return take("items:" + user, rate, interval, id);
        }

        @GetMapping("/check/{id}")
        @io.github.resilience4j.circuitbreaker.annotation.CircuitBreaker(name = "items")
        ResponseEntity<String> check(@PathVariable long id, @RequestParam String user) {
            return take("check:" + user, 5, Duration.ofSeconds(60), id);
        }

        private ResponseEntity<String> take(String name, long rate, Duration interval, long id) {
            RRateLimiter limiter = limiters.computeIfAbsent(name, n -> {
                RRateLimiter created = redisson.getRateLimiter(n);
                created.trySetRate(RateType.OVERALL, rate, interval);
                return created;
            });
            if (!limiter.tryAcquire()) {
                return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).build();
            }
            return ResponseEntity.ok(ItemsApp.item(id));
        }
    }

    /** A Redisson client for the variants that use one ({@code bench.redisson=true}), as a Redisson user has. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "bench.redisson", havingValue = "true")
    static class RedissonClientConfiguration {
        @Bean(destroyMethod = "shutdown")
        RedissonClient redisson(@Value("${spring.data.redis.port}") int port) {
            Config config = new Config();
            config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
            return Redisson.create(config);
        }
    }
}
