package io.guard.ratelimit;

/** Whose clock a limit reads. */
public enum TimeSource {
    /** Redis {@code TIME}, read inside the script: every instance shares one timeline whatever its own clock. */
    SERVER,
    /** The caller's injected clock: deterministic tests, or users who trust their clocks. */
    CLIENT
}
