package io.guard.ratelimit.redis;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Actions waiting for the first connection, on attempts the test completes by hand (no Redis involved). */
class ConnectAttemptsTest {

    /** One future per attempt made, in order, completed by the test. */
    private final BlockingQueue<CompletableFuture<String>> made = new LinkedBlockingQueue<>();
    /** The thread each attempt started on. */
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final ConnectAttempts<String> attempts = new ConnectAttempts<>(() -> {
        threads.add(Thread.currentThread());
        CompletableFuture<String> attempt = new CompletableFuture<>();
        made.add(attempt);
        return attempt;
    });

    private CompletableFuture<String> nextAttempt() throws InterruptedException {
        CompletableFuture<String> attempt = made.poll(5, TimeUnit.SECONDS);
        assertThat(attempt).as("an attempt was made").isNotNull();
        return attempt;
    }

    private static Consumer<String> recording(AtomicInteger runs, CompletableFuture<String> ran) {
        return connection -> {
            runs.incrementAndGet();
            ran.complete(connection);
        };
    }

    @Test
    void aWaitingActionRunsOnceWhenConnectedAndALaterOneRunsAtOnce() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> ran = new CompletableFuture<>();
        attempts.whenConnected(recording(runs, ran));
        assertThat(ran).isNotDone();

        nextAttempt().complete("connection");
        assertThat(ran.get(5, TimeUnit.SECONDS)).isEqualTo("connection");
        attempts.get().join();

        AtomicInteger laterRuns = new AtomicInteger();
        CompletableFuture<String> laterRan = new CompletableFuture<>();
        attempts.whenConnected(recording(laterRuns, laterRan));
        assertThat(laterRan).as("connected already: run by the caller").isCompletedWithValue("connection");
        assertThat(runs).hasValue(1);
        assertThat(laterRuns).hasValue(1);
    }

    @Test
    void aWaitingActionOutlivesAFailedAttemptAndRunsOnTheNext() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> ran = new CompletableFuture<>();
        attempts.whenConnected(recording(runs, ran));
        CompletableFuture<String> first = attempts.get();
        nextAttempt().completeExceptionally(new IllegalStateException("refused"));
        assertThatThrownBy(() -> first.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("refused");
        assertThat(ran).isNotDone();

        attempts.retryIfAwaited();
        nextAttempt().complete("second");
        assertThat(ran.get(5, TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(runs).hasValue(1);
    }

    @Test
    void everyAttemptRunsOnGuardsOneConnectThreadNotOnANewOneEachTime() throws Exception {
        for (int i = 0; i < 5; i++) {
            CompletableFuture<String> attempt = attempts.get();
            nextAttempt().completeExceptionally(new IllegalStateException("refused " + i));
            assertThatThrownBy(() -> attempt.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("refused " + i);
        }
        CompletableFuture<String> last = attempts.get();
        nextAttempt().complete("connection");
        assertThat(last.get(5, TimeUnit.SECONDS)).isEqualTo("connection");

        assertThat(threads).hasSize(6).allSatisfy(thread -> {
            assertThat(thread.getName()).isEqualTo("guard-redis-connect");
            assertThat(thread.isDaemon()).isTrue();
        });
        assertThat(threads.stream().distinct()).as("one thread, kept between attempts").hasSize(1);
    }

    @Test
    void aForgottenActionNeverRuns() throws Exception {
        AtomicInteger forgottenRuns = new AtomicInteger();
        Consumer<String> forgotten = recording(forgottenRuns, new CompletableFuture<>());
        attempts.whenConnected(forgotten);
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<String> ran = new CompletableFuture<>();
        attempts.whenConnected(recording(runs, ran));
        attempts.forget(forgotten);

        nextAttempt().complete("connection");
        ran.get(5, TimeUnit.SECONDS); // the actions run in the order given: the forgotten one's turn has passed
        assertThat(forgottenRuns).hasValue(0);
        assertThat(runs).hasValue(1);
    }

    @Test
    void closingTwiceClosesTheConnectionOnce() throws Exception {
        CompletableFuture<String> first = attempts.get();
        nextAttempt().complete("connection");
        first.get(5, TimeUnit.SECONDS);
        AtomicInteger closes = new AtomicInteger();

        attempts.close(connection -> closes.incrementAndGet());
        attempts.close(connection -> closes.incrementAndGet());

        assertThat(closes).hasValue(1);
    }

    @Test
    void aReplacedConnectionIsClosedAndTheNextGetMakesAFreshAttempt() throws Exception {
        CompletableFuture<String> first = attempts.get();
        nextAttempt().complete("stale");
        first.get(5, TimeUnit.SECONDS);
        List<String> closed = new ArrayList<>();

        attempts.replace("another", closed::add); // not the connected one: nothing happens
        assertThat(attempts.connected()).isEqualTo("stale");
        attempts.replace("stale", closed::add);

        assertThat(closed).containsExactly("stale");
        assertThat(attempts.connected()).isNull();
        CompletableFuture<String> fresh = attempts.get();
        nextAttempt().complete("fresh");
        assertThat(fresh.get(5, TimeUnit.SECONDS)).isEqualTo("fresh");
        assertThat(attempts.connected()).isEqualTo("fresh");
    }

    @Test
    void nothingIsReplacedOnceClosed() throws Exception {
        CompletableFuture<String> first = attempts.get();
        nextAttempt().complete("connection");
        first.get(5, TimeUnit.SECONDS);
        List<String> closed = new ArrayList<>();
        attempts.close(closed::add);

        attempts.replace("connection", closed::add);

        assertThat(closed).containsExactly("connection");
        assertThat(made).isEmpty();
    }
}
