package io.hourglass.chaos;

/**
 * A fault of the seeded plan, not yet injected.
 *
 * @param atMs when to inject it, in ms after the scenario's start (later if the previous fault is still running)
 * @param kind what to do
 * @param workerIndex which worker, for worker faults; which server, for server faults
 * @param durationMs how long a pause lasts, how long Redis stays down after a kill, or how long the replica lags behind
 *     (is frozen) before a failover's master kill
 */
record PlannedFault(long atMs, FaultKind kind, int workerIndex, long durationMs) {}
