package io.guard.ratelimit.redis;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** The batching rules, on a connection that answers only when the test says so (no Redis involved). */
class PipelineTest {

    private static final LuaScript SCRIPT = LuaScript.fromResource("fixed_window");

    /** Records each batch it is given; the test completes the calls. */
    private static class HeldConnection extends ScriptConnection {
        final List<List<ScriptCall>> batches = new ArrayList<>();

        @Override
        synchronized void send(List<ScriptCall> calls) {
            batches.add(List.copyOf(calls));
        }

        @Override
        boolean clustered() {
            return false;
        }

        @Override
        CompletionStage<Void> load(List<LuaScript> scripts) {
            throw new UnsupportedOperationException("a pipeline never loads scripts");
        }

        @Override
        Subscription subscribe(String channel, Consumer<String> onMessage, Runnable onResubscribed) {
            throw new UnsupportedOperationException("a pipeline never subscribes");
        }

        @Override
        public String clientName() {
            return "held";
        }

        @Override
        public void close() {
        }

        void answer(int batch) {
            batches.get(batch).forEach(call -> call.reply().complete(List.of(1L)));
        }

        /** The routing key of each script run in batch number {@code batch}. */
        List<String> keys(int batch) {
            return batches.get(batch).stream().map(ScriptCall::routingKey).toList();
        }
    }

    private final HeldConnection connection = new HeldConnection();
    private final Pipeline pipeline = new Pipeline(connection, 3);

    private static ScriptCall call(String key) {
        return new ScriptCall(SCRIPT, true, List.of(key), List.of(), new CompletableFuture<>());
    }

    @Test
    void anIdleLaneSendsAtOnceAndCallsArrivingMeanwhileLeaveTogetherInOrder() {
        ScriptCall first = call("a");
        pipeline.submit(first);
        assertThat(connection.keys(0)).containsExactly("a");

        List<ScriptCall> queued = List.of(call("b"), call("c"));
        queued.forEach(pipeline::submit);
        assertThat(connection.batches).as("nothing more leaves while a batch is in flight").hasSize(1);

        connection.answer(0);
        assertThat(first.reply()).isCompleted();
        assertThat(connection.batches).hasSize(2);
        assertThat(connection.keys(1)).containsExactly("b", "c");

        connection.answer(1);
        ScriptCall later = call("d");
        pipeline.submit(later);
        assertThat(connection.keys(2)).as("idle again: sent at once").containsExactly("d");
        assertThat(pipeline.batchesSent()).isEqualTo(3);
    }

    @Test
    void batchesAreBoundedAndTheRestLeavesNext() {
        pipeline.submit(call("first"));
        List<ScriptCall> queued = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            queued.add(call("k" + i));
        }
        queued.forEach(pipeline::submit);
        connection.answer(0);
        assertThat(connection.keys(1)).containsExactly("k0", "k1", "k2");
        connection.answer(1);
        assertThat(connection.keys(2)).containsExactly("k3", "k4", "k5");
        connection.answer(2);
        assertThat(connection.keys(3)).containsExactly("k6");
        connection.answer(3);
        assertThat(queued).allSatisfy(call -> assertThat(call.reply()).isCompletedWithValue(List.of(1L)));
    }

    @Test
    void aFailedBatchFailsItsCallsAndTheLaneGoesOn() {
        ScriptCall first = call("a");
        pipeline.submit(first);
        ScriptCall second = call("b");
        pipeline.submit(second);
        RuntimeException timeout = new RuntimeException("timeout");
        connection.batches.get(0).get(0).reply().completeExceptionally(timeout);
        assertThat(first.reply().handle((reply, error) -> error).join()).isSameAs(timeout);
        assertThat(connection.batches).as("the failed call frees the lane like an answer").hasSize(2);
        assertThat(connection.keys(1)).containsExactly("b");
    }

    @Test
    void aBatchWhoseCallersAllStoppedWaitingFreesTheLane() {
        ScriptCall first = call("a");
        pipeline.submit(first);
        ScriptCall second = call("b");
        pipeline.submit(second);
        first.reply().cancel(false);
        assertThat(connection.keys(1)).containsExactly("b");
    }

    @Test
    void aConnectionThatThrowsFailsTheBatchInsteadOfTheCaller() {
        Pipeline broken = new Pipeline(new HeldConnection() {
            @Override
            synchronized void send(List<ScriptCall> calls) {
                throw new IllegalStateException("connection closed");
            }
        }, 3);
        ScriptCall a = call("a");
        ScriptCall b = call("b");
        broken.submit(a);
        broken.submit(b);
        assertThat(a.reply()).isCompletedExceptionally();
        assertThat(b.reply()).as("the lane did not stay busy").isCompletedExceptionally();
    }
}
