package io.guard.ratelimit.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * A real connection whose first send waits until the test releases it, so that the calls submitted meanwhile queue
 * in the pipeline and leave as one batch: batches become a thing a test can arrange rather than hope for. Records
 * what each send carried, after merging.
 */
final class HeldBackConnection extends ForwardingConnection {

    private final List<List<ScriptCall>> sent = new ArrayList<>();
    private List<ScriptCall> held;
    private boolean holding = true;

    HeldBackConnection(ScriptConnection real) {
        super(real);
    }

    @Override
    void send(List<ScriptCall> calls) {
        synchronized (this) {
            sent.add(List.copyOf(calls));
            if (holding) {
                holding = false;
                held = calls;
                return;
            }
        }
        real.send(calls);
    }

    /** Sends the held batch; the pipeline sends what queued meanwhile once it is answered. */
    void release() {
        List<ScriptCall> calls;
        synchronized (this) {
            calls = held;
            held = null;
        }
        real.send(calls);
    }

    /** The calls of each send so far (a batch merged into script runs), first send first. */
    synchronized List<List<ScriptCall>> sent() {
        return List.copyOf(sent);
    }
}
