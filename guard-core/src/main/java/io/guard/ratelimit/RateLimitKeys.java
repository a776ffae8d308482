package io.guard.ratelimit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Turns a limiter name and a resolved key (often straight from user input: a user id, an IP, a header) into the
 * part of a backend key that identifies one limit: {@code {<limiter>:<key>}}.
 *
 * <p>Both parts are percent-encoded outside a small safe alphabet, so {@code ':'}, {@code '{'} and {@code '}'}
 * never appear raw: the encoding is injective, hence limiter {@code "a:b"} with key {@code "c"} and limiter
 * {@code "a"} with key {@code "b:c"} get different keys, and no input can move a key out of its Redis Cluster
 * hash slot. A part whose encoding exceeds {@link #MAX_PART_LENGTH} is replaced by {@code '#'} and a 128-bit
 * SHA-256 digest; {@code '#'} is always encoded otherwise, so a digest cannot collide with a short key.
 */
public final class RateLimitKeys {

    /** The longest encoded limiter name or key kept verbatim; longer ones are hashed. */
    public static final int MAX_PART_LENGTH = 100;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** {@link #isSafe} for every ASCII char, read char by char on the hot path. */
    private static final boolean[] SAFE = new boolean[0x80];

    static {
        for (int c = 0; c < SAFE.length; c++) {
            SAFE[c] = isSafe(c);
        }
    }

    private RateLimitKeys() {
    }

    /** {@code {<encoded limiter>:<encoded key>}}; a {@code null} key is the empty key (one quota for the limiter). */
    public static String hashTag(String limiter, String key) {
        String raw = key == null ? "" : key;
        if (verbatim(limiter) && verbatim(raw)) {
            // The common case (names and ids of safe characters) in one builder, with no encoded copies.
            return new StringBuilder(limiter.length() + raw.length() + 3)
                    .append('{').append(limiter).append(':').append(raw).append('}').toString();
        }
        return "{" + encode(limiter) + ":" + encode(raw) + "}";
    }

    /** Whether {@link #encode} returns {@code raw} itself: short enough, and every char in the safe alphabet. */
    private static boolean verbatim(String raw) {
        if (raw.length() > MAX_PART_LENGTH) {
            return false;
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c >= SAFE.length || !SAFE[c]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Percent-encodes the UTF-8 bytes of {@code raw} outside {@code [A-Za-z0-9._@/+=-]}, hashing it when the result
     * is too long. A lone surrogate (a Java string that is not valid UTF-16, e.g. from a broken decoder) has no
     * UTF-8 form, so it becomes {@code %uXXXX}, which no byte escape can produce; UTF-8 would turn every such char
     * into the same {@code '?'}, and two different keys into one.
     */
    public static String encode(String raw) {
        StringBuilder out = new StringBuilder(raw.length() + 8);
        for (int i = 0; i < raw.length(); ) {
            int codePoint = raw.codePointAt(i);
            i += Character.charCount(codePoint);
            if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
                out.append("%u").append(HEX[codePoint >> 12 & 0xF]).append(HEX[codePoint >> 8 & 0xF])
                        .append(HEX[codePoint >> 4 & 0xF]).append(HEX[codePoint & 0xF]);
            } else if (codePoint < 0x80) {
                appendByte(out, codePoint);
            } else {
                for (byte b : Character.toString(codePoint).getBytes(StandardCharsets.UTF_8)) {
                    appendByte(out, b & 0xFF);
                }
            }
            if (out.length() > MAX_PART_LENGTH) {
                return digest(raw);
            }
        }
        return out.toString();
    }

    private static void appendByte(StringBuilder out, int c) {
        if (isSafe(c)) {
            out.append((char) c);
        } else {
            out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
        }
    }

    private static boolean isSafe(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '.' || c == '_' || c == '@' || c == '/' || c == '+' || c == '=' || c == '-';
    }

    /**
     * A digest of the chars themselves (two bytes each), so that keys differing only in lone surrogates get different
     * digests: every charset encoder would replace those with one same character first.
     */
    private static String digest(String raw) {
        byte[] chars = new byte[raw.length() * 2];
        for (int i = 0; i < raw.length(); i++) {
            chars[2 * i] = (byte) (raw.charAt(i) >> 8);
            chars[2 * i + 1] = (byte) raw.charAt(i);
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(chars);
            return "#" + Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(hash, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
