package io.guard.ratelimit;

/** Who shares a quota. */
public enum Scope {
    /** One quota for every instance of the service (the point of a Redis-backed limit). */
    GLOBAL,
    /** Each instance has its own quota, still kept in the backend. */
    PER_INSTANCE
}
