package io.guard.ratelimit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link RateLimitKeys#hashTag}'s shortcut for safe names and keys gives the tag the encoding gives. */
class HashTagTest {

    private static String encoded(String limiter, String key) {
        return "{" + RateLimitKeys.encode(limiter) + ":" + RateLimitKeys.encode(key == null ? "" : key) + "}";
    }

    @Test
    void everyTagIsTheEncodedLimiterAndKey() {
        String[] parts = {"", "orders", "user-42", "a.b_c@d/e+f=g-h", "a:b", "{x}", "50%", "#x", "é", "日本",
                "\uD800", "a b", "x".repeat(RateLimitKeys.MAX_PART_LENGTH),
                "x".repeat(RateLimitKeys.MAX_PART_LENGTH + 1), "x".repeat(RateLimitKeys.MAX_PART_LENGTH - 1) + ":"};
        for (String limiter : parts) {
            for (String key : parts) {
                assertThat(RateLimitKeys.hashTag(limiter, key)).as("%s / %s", limiter, key)
                        .isEqualTo(encoded(limiter, key));
            }
            assertThat(RateLimitKeys.hashTag(limiter, null)).isEqualTo(encoded(limiter, null));
        }
    }

    @Test
    void aSafeKeyOfTheLongestKeptLengthStaysVerbatimAndALongerOneIsHashed() {
        String longest = "k".repeat(RateLimitKeys.MAX_PART_LENGTH);
        assertThat(RateLimitKeys.hashTag("l", longest)).isEqualTo("{l:" + longest + "}");
        assertThat(RateLimitKeys.hashTag("l", longest + "k")).startsWith("{l:#").doesNotContain(longest);
    }
}
