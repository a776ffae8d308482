package io.guard.spring.reliability;

import io.guard.spring.ratelimit.RateLimitExceededException;
import io.guard.spring.test.ImportAutoConfigs;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.RedisBacked;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Keys an attacker controls, resolved by SpEL in the {@code @RateLimit} aspect and counted on a real Redis: each one
 * gets a quota of its own (no two keys, and no two limiters, share one), and the Redis keys Guard writes keep the
 * hash tag intact and stay short whatever came in.
 */
@RedisTest
class HostileKeysAspectIT {

    private static final List<String> HOSTILE = List.of("{", "}", "{}", "a}{b", "{victim}", "x:k", "k", "*", "?*",
            "[a-z]", "line\nbreak", "\r\n", "%7B", "\uD800", "\uDC00", "?", "é", "😀", "k".repeat(10_000),
            "k".repeat(10_000) + "!");

    private static AnnotationConfigApplicationContext context;
    private static RedisEndpoint redis;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfigs(value = {"DataRedisAutoConfiguration|RedisAutoConfiguration", "RedissonAutoConfigurationV4|RedissonAutoConfigurationV2"},
            classes = {AopAutoConfiguration.class, GuardAutoConfiguration.class})
    @Import(Accounts.class)
    static class App {
    }

    static class Accounts {
        @RateLimit(name = "hostile", key = "#key", rate = 2, interval = "60s")
        public String byKey(String key) {
            return "ok";
        }

        /** A limiter whose name, joined to key "k", looks like limiter "hostile" with key "x:k". */
        @RateLimit(name = "hostile:x", key = "#key", rate = 2, interval = "60s")
        public String byKeyElsewhere(String key) {
            return "ok";
        }

        /** Raw bytes that are not UTF-8, read as Latin-1 the way a careless header parser would. */
        @RateLimit(name = "raw", key = "new String(#raw, 'ISO-8859-1')", rate = 2, interval = "60s")
        public String byBytes(byte[] raw) {
            return "ok";
        }
    }

    @BeforeAll
    static void start(RedisEndpoint endpoint) {
        redis = endpoint;
        context = RedisBacked.start(new AnnotationConfigApplicationContext(), endpoint, c -> c.register(App.class));
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void everyHostileKeyHasItsOwnQuotaAndItsOwnShortSlotBoundRedisKey() {
        Accounts accounts = context.getBean(Accounts.class);
        for (String key : HOSTILE) {
            spendQuota("hostile " + printable(key), () -> accounts.byKey(key));
        }
        // "hostile:x" + "k" must not be "hostile" + "x:k", whose quota is spent.
        spendQuota("hostile:x k", () -> accounts.byKeyElsewhere("k"));
        spendQuota("raw C3 28", () -> accounts.byBytes(new byte[] {(byte) 0xC3, (byte) 0x28}));
        spendQuota("raw FF", () -> accounts.byBytes(new byte[] {(byte) 0xFF}));
        spendQuota("raw FF FE 00", () -> accounts.byBytes(new byte[] {(byte) 0xFF, (byte) 0xFE, 0}));

        List<String> keys = redis.keys();
        Set<String> tags = new HashSet<>();
        for (String key : keys) {
            String rest = key.substring(redis.keyPrefix().length());
            assertThat(rest).as("Redis key %s", key).startsWith("{");
            int close = rest.indexOf('}');
            assertThat(close).as("Redis key %s has a closing brace", key).isPositive();
            String tag = rest.substring(1, close);
            assertThat(tag).as("hash tag of %s", key).doesNotContain("{").matches("[A-Za-z0-9._@/+=%#:u-]+");
            assertThat(rest.substring(close + 1)).as("after the tag of %s", key).matches(":[a-z]+");
            assertThat(key.length()).as("length of %s", key)
                    .isLessThanOrEqualTo(redis.keyPrefix().length() + 2 * 101 + 10);
            tags.add(tag);
        }
        assertThat(tags).as("one hash tag per limiter and key").hasSize(HOSTILE.size() + 4);
    }

    /** Two calls pass and the third is refused: the key had a fresh quota of 2 of its own. */
    private static void spendQuota(String what, Supplier<String> call) {
        assertThat(call.get()).as("%s, first call", what).isEqualTo("ok");
        assertThat(call.get()).as("%s, second call", what).isEqualTo("ok");
        assertThatThrownBy(call::get).as("%s, third call", what).isInstanceOf(RateLimitExceededException.class);
    }

    private static String printable(String key) {
        StringBuilder out = new StringBuilder();
        key.chars().limit(30).forEach(c -> out.append(c < 0x20 || c > 0x7E ? String.format("\\u%04X", c) : (char) c));
        return key.length() > 30 ? out + "...(" + key.length() + " chars)" : out.toString();
    }
}
