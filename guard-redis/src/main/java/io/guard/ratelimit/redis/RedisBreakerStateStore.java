package io.guard.ratelimit.redis;

import io.guard.breaker.BreakerStateStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The breakers' fleet-wide states shared by every instance on one Redis and key prefix: one hash,
 * {@code <prefix>{guard-breakers}} (field: the breaker's name, value: its last fleet-wide command), changed by the
 * same script as the limits' overrides, which publishes the command on {@code <prefix>breakers} in the same step.
 * Pub/sub may miss a message (a lost connection); {@link #listen} runs its re-subscription callback after each
 * re-subscription, and the Spring layer re-reads periodically as well. Instances report their breakers' states beside
 * it ({@code fleet_report.lua}): a sorted set {@code <prefix>{guard-breakers}:instances} of instance names by expiry
 * and a hash {@code <prefix>{guard-breakers}:instance:<name>} each, all in the hash's slot.
 */
public final class RedisBreakerStateStore implements BreakerStateStore {

    private static final LuaScript REPORT = LuaScript.fromResource("fleet_report");

    private final SharedHash hash;
    private final String instances;
    private final String instancePrefix;

    /**
     * @param connection runs the script and the subscription; not closed by {@link #close()}
     * @param keyPrefix  the prefix of every Guard key (as the limiter's); must not contain braces
     */
    public RedisBreakerStateStore(ScriptConnection connection, String keyPrefix) {
        this.hash = new SharedHash(connection, keyPrefix, "guard-breakers", "breakers", REPORT);
        this.instances = hash.key(":instances");
        this.instancePrefix = hash.key(":instance:");
    }

    @Override
    public CompletionStage<Void> put(String breaker, String command) {
        return hash.put(breaker, command, command);
    }

    @Override
    public CompletionStage<Map<String, String>> readAll() {
        return hash.readAll();
    }

    @Override
    public CompletionStage<Void> report(String instance, Map<String, String> states, Duration ttl) {
        List<String> args = new ArrayList<>(List.of("report", instance, Long.toString(Math.max(1, ttl.toMillis()))));
        states.forEach((breaker, state) -> {
            args.add(breaker);
            args.add(state);
        });
        return hash.run(REPORT, List.of(instances, instancePrefix + instance), args).thenApply(reply -> null);
    }

    @Override
    public CompletionStage<Map<String, Map<String, String>>> reports() {
        return hash.run(REPORT, List.of(instances), List.of("read", instancePrefix)).thenApply(reply -> {
            Map<String, Map<String, String>> all = new LinkedHashMap<>();
            int i = 0;
            while (i + 1 < reply.size()) {
                String instance = String.valueOf(reply.get(i));
                int pairs = Integer.parseInt(String.valueOf(reply.get(i + 1)));
                Map<String, String> states = new LinkedHashMap<>();
                for (int p = 0; p < pairs && i + 3 + 2 * p < reply.size(); p++) {
                    states.put(String.valueOf(reply.get(i + 2 + 2 * p)), String.valueOf(reply.get(i + 3 + 2 * p)));
                }
                all.put(instance, states);
                i += 2 + 2 * pairs;
            }
            return all;
        });
    }

    @Override
    public void listen(Consumer<String> onMessage, Runnable onResubscribed) {
        hash.listen(onMessage, onResubscribed);
    }

    /** Completes once this store hears of commands sent elsewhere (after {@link #listen}). */
    CompletionStage<Void> listening() {
        return hash.listening();
    }

    @Override
    public void close() {
        hash.close();
    }
}
