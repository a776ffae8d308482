package io.guard.sample.scenario;

/**
 * A breaker state change seen by the scenario.
 *
 * @param atMs ms since the scenario began
 * @param from the state left
 * @param to   the state entered
 */
record Transition(long atMs, String from, String to) {
}
