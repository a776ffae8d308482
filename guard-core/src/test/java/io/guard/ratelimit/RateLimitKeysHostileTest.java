package io.guard.ratelimit;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys straight from user input: whatever the bytes, a limit's hash tag stays one Redis Cluster slot, bounded in
 * length, printable, and two different (limiter, key) pairs never share it.
 */
class RateLimitKeysHostileTest {

    private static final List<String> HOSTILE = List.of("", "{", "}", "{}", "a}{b", "{user-1}", "x:y", ":", "*",
            "?[a-z]*", "%41", "A", "line\nbreak", "\r\n", "\u0000", "é", "😀", "\uD800", "\uDC00", "a\uD800b", "a?b",
            "#abc", "k".repeat(10_000), "k".repeat(10_000) + "\uD800", "k".repeat(10_000) + "\uDC00",
            new String(new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF},
                    java.nio.charset.StandardCharsets.ISO_8859_1));

    @Test
    void aHashTagIsOneSlotBoundedAndPrintableWhateverTheKey() {
        for (String key : HOSTILE) {
            String tag = RateLimitKeys.hashTag("limiter:{x}", key);
            assertThat(tag).as("tag of %s", key.length() > 20 ? key.length() + " chars" : key)
                    .startsWith("{").endsWith("}")
                    .matches("\\{[A-Za-z0-9._@/+=%#:u-]*}")
                    .hasSizeLessThanOrEqualTo(2 * (RateLimitKeys.MAX_PART_LENGTH + 3) + 3);
            assertThat(tag.chars().filter(c -> c == '{' || c == '}').count()).isEqualTo(2);
        }
    }

    @Test
    void differentKeysNeverShareAHashTag() {
        Map<String, String> seen = new HashMap<>();
        for (String key : HOSTILE) {
            String previous = seen.put(RateLimitKeys.hashTag("l", key), key);
            assertThat(previous == null).as("a key colliding with %s", printable(key)).isTrue();
        }
    }

    @Test
    void loneSurrogatesDoNotCollapseIntoOneKey() {
        assertThat(RateLimitKeys.encode("a\uD800")).isNotEqualTo(RateLimitKeys.encode("a?"))
                .isNotEqualTo(RateLimitKeys.encode("a\uDBFF"));
        assertThat(RateLimitKeys.encode("x".repeat(200) + "\uD800"))
                .isNotEqualTo(RateLimitKeys.encode("x".repeat(200) + "\uDC00"));
    }

    @Test
    void limiterAndKeyCannotBeTradedForEachOther() {
        assertThat(RateLimitKeys.hashTag("a:b", "c")).isNotEqualTo(RateLimitKeys.hashTag("a", "b:c"));
        assertThat(RateLimitKeys.hashTag("a}", "{b")).isNotEqualTo(RateLimitKeys.hashTag("a", "}{b"));
    }

    @Test
    void randomHostileStringsAreEncodedInjectively() {
        char[] alphabet = {'a', 'A', '{', '}', ':', '*', '%', '#', '?', '\n', '\uD800', '\uDC00', 'é', '4', '1'};
        Random random = new Random(7);
        Map<String, String> seen = new HashMap<>();
        for (int i = 0; i < 50_000; i++) {
            StringBuilder raw = new StringBuilder();
            int length = random.nextInt(8);
            for (int j = 0; j < length; j++) {
                raw.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String key = raw.toString();
            String previous = seen.put(RateLimitKeys.encode(key), key);
            assertThat(previous == null || previous.equals(key)).as("%s and %s", printable(key), printable(previous))
                    .isTrue();
        }
    }

    private static String printable(String key) {
        if (key == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        key.chars().limit(40).forEach(c -> out.append(c < 0x20 || c > 0x7E ? String.format("\\u%04X", c) : (char) c));
        return out.toString();
    }
}
