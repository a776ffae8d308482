package io.guard.sample.scenario;

import java.time.Duration;

/**
 * One stretch of the scenario: the downstream's latency, and for how long.
 *
 * @param name      for the log and the summary
 * @param latencyMs what PUT /chaos/inventory sets at the start of the phase
 * @param length    how long the phase lasts
 */
record Phase(String name, long latencyMs, Duration length) {
}
