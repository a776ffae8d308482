package io.guard.ratelimit.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One of the scripts in {@code guard/lua/}, with the digest Redis knows it by (the SHA-1 of its text), so that a
 * decision sends {@code EVALSHA} and a few dozen bytes rather than the script. The digest is computed here rather
 * than asked of Redis: it is the same on every node of a cluster and needs no round trip before the first call.
 */
record LuaScript(String name, String source, String sha) {

    static LuaScript fromResource(String name) {
        return of(name, read(name));
    }

    static LuaScript of(String name, String source) {
        return new LuaScript(name, source, sha1(source));
    }

    /** Whether calls of this script may be concatenated into one run (see {@link DecideScript}). */
    boolean concatenative() {
        return name.equals(DecideScript.NAME);
    }

    /** The text of {@code guard/lua/<name>.lua}. */
    static String read(String name) {
        String path = "guard/lua/" + name + ".lua";
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script resource " + path, e);
        }
    }

    private static String sha1(String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-1, which every Java platform must provide", e);
        }
    }
}
