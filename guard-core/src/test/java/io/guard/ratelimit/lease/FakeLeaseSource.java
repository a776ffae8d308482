package io.guard.ratelimit.lease;

import io.guard.ratelimit.Decision;
import io.guard.ratelimit.RateLimitPolicy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * A shared quota that never refills, in memory: takes grant what is left (up to the size asked), give-backs put
 * permits back, and every call is recorded. {@link #hold} keeps the next take's answer back until {@link #answer}.
 */
final class FakeLeaseSource implements LeaseSource {

    record Take(long want, long need, Unused previous) {
    }

    long left;
    final List<Take> takes = new ArrayList<>();
    final List<Unused> givenBack = new ArrayList<>();
    private Consumer<String> revoked;
    private boolean hold;
    private Runnable pending;

    FakeLeaseSource(long quota) {
        this.left = quota;
    }

    @Override
    public CompletionStage<LeaseGrant> take(RateLimitPolicy policy, String key, long want, long need,
                                            Unused previous) {
        takes.add(new Take(want, need, previous));
        CompletableFuture<LeaseGrant> grant = new CompletableFuture<>();
        Runnable run = () -> {
            left += previous.permits();
            long granted = left >= need ? Math.min(want, left) : 0;
            left -= granted;
            Decision decision = new Decision(granted > 0, left, granted > 0 ? Duration.ZERO : Duration.ofMillis(300),
                    Duration.ofSeconds(1), policy.rate());
            grant.complete(new LeaseGrant(granted, decision, 0, LeaseGrant.UNBOUNDED, previous.permits()));
        };
        if (hold) {
            hold = false;
            pending = run;
        } else {
            run.run();
        }
        return grant;
    }

    @Override
    public CompletionStage<Long> giveBack(RateLimitPolicy policy, String key, Unused unused) {
        givenBack.add(unused);
        left += unused.permits();
        return CompletableFuture.completedFuture(unused.permits());
    }

    @Override
    public void onRevoke(Consumer<String> revoked) {
        this.revoked = revoked;
    }

    /** As a reset message from another instance would. */
    void revoke(String tag) {
        revoked.accept(tag);
    }

    void hold() {
        hold = true;
    }

    void answer() {
        pending.run();
    }
}
