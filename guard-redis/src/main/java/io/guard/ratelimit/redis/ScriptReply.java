package io.guard.ratelimit.redis;

import io.guard.ratelimit.Decision;

/**
 * A script's answer: the decision, plus the instant (microseconds, on the clock the script used) at which it was
 * taken, which tests use to check admissions against the policy on the server's own timeline.
 */
record ScriptReply(Decision decision, long nowMicros) {
}
