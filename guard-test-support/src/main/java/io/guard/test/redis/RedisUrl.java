package io.guard.test.redis;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** The parts of a {@code redis://[[user]:password@]host[:port][/db]} address that the harness needs. */
record RedisUrl(String host, int port, String password) {

    static RedisUrl parse(String url) {
        URI uri;
        try {
            uri = URI.create(url.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("GUARD_REDIS_URL is not a URL: '" + url + "'", e);
        }
        if (!"redis".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("GUARD_REDIS_URL must look like redis://host:port but was '" + url + "'");
        }
        String password = null;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            String raw = userInfo.contains(":") ? userInfo.substring(userInfo.indexOf(':') + 1) : userInfo;
            password = raw.isEmpty() ? null : URLDecoder.decode(raw, StandardCharsets.UTF_8);
        }
        return new RedisUrl(uri.getHost(), uri.getPort() == -1 ? 6379 : uri.getPort(), password);
    }

    static String loopback(int port) {
        return "redis://127.0.0.1:" + port;
    }
}
