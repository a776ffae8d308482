package io.guard.spring.ratelimit;

/** What a limit does when its key expression yields null or an empty string. */
public enum MissingKeyPolicy {
    /** Refuse the call with {@link MissingRateLimitKeyException} (HTTP 400). */
    REJECT,
    /** Count the call against one key shared by every call without a key. */
    SHARED
}
