package io.guard.ratelimit.redis;

import org.redisson.api.RScript;
import org.redisson.client.RedisNoScriptException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * One of the scripts in {@code guard/lua/}: loaded into Redis once and then run by digest ({@code EVALSHA}), so a
 * decision sends a few dozen bytes rather than the script. When Redis has forgotten the script ({@code SCRIPT
 * FLUSH}, a restart, a fail-over to a replica that never saw it) the call fails with {@code NOSCRIPT}; the script
 * is then loaded again and the call repeated once.
 */
final class LuaScript {

    private final String name;
    private final String source;
    private volatile String sha;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
    }

    static LuaScript fromResource(String name) {
        String path = "guard/lua/" + name + ".lua";
        try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + path);
            }
            return new LuaScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script resource " + path, e);
        }
    }

    String name() {
        return name;
    }

    /** Runs the script on the node owning {@code routingKey}; the reply is the script's array of integers. */
    CompletionStage<List<Object>> run(RScript script, String routingKey, List<Object> keys, Object[] args) {
        CompletableFuture<List<Object>> result = new CompletableFuture<>();
        String known = sha;
        if (known == null) {
            reloadAndRun(script, routingKey, keys, args, result);
            return result;
        }
        // One stage on the hot path: complete the result straight from Redisson's callback.
        evalSha(script, known, routingKey, keys, args).whenComplete((reply, error) -> {
            if (error == null) {
                result.complete(reply);
            } else if (isNoScript(error)) {
                reloadAndRun(script, routingKey, keys, args, result);
            } else {
                result.completeExceptionally(unwrap(error));
            }
        });
        return result;
    }

    private void reloadAndRun(RScript script, String routingKey, List<Object> keys, Object[] args,
                              CompletableFuture<List<Object>> result) {
        load(script).thenCompose(loaded -> evalSha(script, loaded, routingKey, keys, args))
                .whenComplete((reply, error) -> {
                    if (error == null) {
                        result.complete(reply);
                    } else {
                        result.completeExceptionally(unwrap(error));
                    }
                });
    }

    private CompletionStage<String> load(RScript script) {
        return script.scriptLoadAsync(source).thenApply(loaded -> {
            sha = loaded;
            return loaded;
        });
    }

    private static CompletionStage<List<Object>> evalSha(RScript script, String digest, String routingKey,
                                                         List<Object> keys, Object[] args) {
        return script.evalShaAsync(routingKey, RScript.Mode.READ_WRITE, digest, RScript.ReturnType.MAPVALUELIST, keys, args);
    }

    static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while (current instanceof CompletionException && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static boolean isNoScript(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof RedisNoScriptException
                    || (t.getMessage() != null && t.getMessage().contains("NOSCRIPT"))) {
                return true;
            }
        }
        return false;
    }
}
