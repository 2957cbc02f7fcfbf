package io.hourglass.chaos;

/**
 * A reschedule ({@code R topic id newDueMs startMs endMs found tries}) or a cancel ({@code K topic id startMs endMs
 * found tries}) of the cold-tier scenario, once it returned.
 *
 * @param newDueMs the due instant the reschedule asked for; -1 for a cancel
 * @param startMs wall time its first try began
 * @param endMs wall time the try that returned returned
 * @param found what it returned: the job was there to reschedule or cancel
 * @param tries calls it took (more than 1 across a fault)
 */
record TierOperation(long newDueMs, long startMs, long endMs, boolean found, int tries) {}
