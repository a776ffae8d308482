package io.guard.test.redis;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The processes of one multi-node deployment (a Sentinel set-up, a cluster), stopped together on {@link #close()}
 * or, if the JVM ends first (a test run killed, an assertion that skipped the cleanup), by a shutdown hook: a
 * failed test never leaves a server running.
 */
final class OwnedProcesses implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OwnedProcesses.class);

    private record Owned(String name, Runnable stop) {
    }

    private final List<Owned> owned = new ArrayList<>();
    private final Thread shutdownHook;

    OwnedProcesses(String name) {
        shutdownHook = new Thread(this::stopAll, "guard-" + name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    synchronized void add(String name, Runnable stop) {
        owned.add(new Owned(name, stop));
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs or has run
        }
        stopAll();
    }

    private synchronized void stopAll() {
        for (Owned process : owned) {
            try {
                process.stop().run();
            } catch (RuntimeException e) {
                log.warn("could not stop {}", process.name(), e);
            }
        }
    }
}
