package io.hourglass.chaos;

/**
 * One injected fault as recorded in {@code faults.log}: {@code F kind target pid startMs endMs}.
 *
 * @param kind what was done
 * @param target the worker's name or {@code redis}
 * @param pid the process hit
 * @param startMs wall time the fault began (kill, SIGSTOP)
 * @param endMs wall time it was over (the kill itself; SIGCONT; Redis answering again; replica promoted and resynced)
 */
record Fault(FaultKind kind, String target, long pid, long startMs, long endMs) {

    /** @return whether the fault's time span meets {@code [fromMs, toMs]} */
    boolean overlaps(long fromMs, long toMs) {
        return startMs <= toMs && endMs >= fromMs;
    }

    Object[] fields() {
        return new Object[] {"F", kind.label(), target, pid, startMs, endMs};
    }
}
