/**
 * The fault-injection checker: {@link io.hourglass.chaos.ChaosMain} (command line) and
 * {@link io.hourglass.chaos.FaultChecker} (API) run {@link io.hourglass.chaos.Scenario}s in which producer and worker
 * processes record every acceptance and delivery to append-only history files while faults are injected; the history is
 * then checked offline for lost, early and unexplained duplicate deliveries.
 */
package io.hourglass.chaos;
