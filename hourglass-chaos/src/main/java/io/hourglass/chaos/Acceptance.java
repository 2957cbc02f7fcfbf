package io.hourglass.chaos;

/**
 * A job a producer was told is accepted: {@code A topic id dueMs reportedDueMs acceptedWallMs tries}.
 *
 * @param topic the job's topic
 * @param id the job's id
 * @param dueMs the due instant the producer asked for
 * @param reportedDueMs the due instant {@code schedule} reported
 * @param acceptedMs wall time {@code schedule} returned
 * @param tries schedule calls it took (more than 1 across a fault)
 */
record Acceptance(String topic, String id, long dueMs, long reportedDueMs, long acceptedMs, int tries) {}
