package io.guard.ratelimit;

/**
 * Evidence that a remote backend is alive: how many replies it has delivered so far. {@link FailoverRateLimiter}
 * reads it when a call starts and again when the call's timeout passes, to tell a sick backend (silent the whole
 * time: it is hung, paused or unreachable) from a busy client (the backend answered other calls meanwhile, so this
 * call's reply is late in the client, behind a CPU-starved or paused JVM or a cold connection).
 *
 * <p>Read once per decision, so implementations must be a plain field read; they count per round trip or per batch,
 * never per scan. Replies that are errors the server sent (such as {@code NOSCRIPT}) count: the server answered.
 */
@FunctionalInterface
public interface BackendPulse {

    /** For a backend that gives no evidence: never changes, and never 0, so every timeout is the backend's. */
    BackendPulse NONE = () -> -1L;

    /**
     * Replies the backend has delivered since it was made; only grows. 0 means none yet: the client is still
     * connecting and warming up, and a call waits up to the patience limit before it blames the backend.
     */
    long replies();
}
