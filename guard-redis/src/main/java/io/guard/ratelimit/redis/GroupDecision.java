package io.guard.ratelimit.redis;

import io.guard.ratelimit.BackendOutcome;
import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitKeys;
import io.guard.ratelimit.RateLimitPolicy;
import io.guard.ratelimit.RateLimitRequest;
import io.guard.ratelimit.RateLimiter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import static io.guard.ratelimit.redis.LimitScripts.cancelling;

/**
 * Several limits of one call decided all-or-nothing in one script run ({@link RedisRateLimiter#decideAll}): the
 * limits are decided one after the other and, if any refuses, every key they touched is put back as it was (see
 * {@code decide.lua}), so a refused call spends nothing. That needs every key in one script group: always on a single
 * server; on a cluster the limits' keys are in different slots (each limit and key is its own hash tag), and the
 * limits are decided one by one instead, as {@link RateLimiter#decideAll} describes.
 */
final class GroupDecision {

    private final ScriptConnection connection;
    private final LimitEntries entries;
    private final LimitScripts scripts;
    private final RefusalCache refusals;
    private final ResetListener resets;
    private final ToLongFunction<RateLimitPolicy> sentMicros;

    /** @param sentMicros when a request leaves, on the clock its policy's refusals are remembered by */
    GroupDecision(ScriptConnection connection, LimitEntries entries, LimitScripts scripts, RefusalCache refusals,
                  ResetListener resets, ToLongFunction<RateLimitPolicy> sentMicros) {
        this.connection = connection;
        this.entries = entries;
        this.scripts = scripts;
        this.refusals = refusals;
        this.resets = resets;
        this.sentMicros = sentMicros;
    }

    /**
     * Decides {@code requests} in one script run and remembers the refusals, or asks {@code oneByOne} when their
     * keys fall in more than one script group.
     */
    CompletionStage<List<BackendOutcome>> decide(List<RateLimitRequest> requests,
                                                 Supplier<CompletionStage<List<BackendOutcome>>> oneByOne) {
        List<String> tags = requests.stream()
                .map(request -> RateLimitKeys.hashTag(request.policy().name(), request.key())).toList();
        // A limit's keys all carry its tag, so the tag alone says which script group they fall in.
        if (tags.stream().map(connection::scriptGroup).distinct().count() > 1) {
            return oneByOne.get();
        }
        long[] sent = new long[requests.size()];
        List<DecideScript.Limit> limits = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            RateLimitRequest request = requests.get(i);
            sent[i] = sentMicros.applyAsLong(request.policy());
            limits.add(entries.limit(request.policy(), tags.get(i), request.permits(), sent[i], false));
        }
        resets.subscription();
        Supplier<String> names = () -> String.join(", ", requests.stream().map(r -> r.policy().name()).toList());
        CompletableFuture<List<Object>> reply = scripts.decideAll(limits, names,
                ReplicaShortfall.strongest(requests.stream().map(RateLimitRequest::policy)));
        return cancelling(reply, reply.thenApply(values -> {
            ScriptReply.checkGroup(values, requests.size(), names);
            List<BackendOutcome> outcomes = new ArrayList<>(requests.size());
            for (int i = 0; i < requests.size(); i++) {
                RateLimitRequest request = requests.get(i);
                Decision decision = ScriptReply.ofRow(request.policy(), values, i).decision();
                refusals.remember(request.policy(), tags.get(i), request.permits(), sent[i], decision);
                outcomes.add(BackendOutcome.decided(decision));
            }
            return outcomes;
        }));
    }
}
