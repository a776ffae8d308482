package io.guard.spring.aop;

/**
 * One limit's request of one call: the spec, the resolved key and the permits, evaluated on the calling thread.
 */
record LimitRequest(LimitSpec spec, String key, long permits) {
}
