package io.hourglass.history.jdbc;

/** How a job ended, as its completion event and its history row say. */
public enum HistoryOutcome {
    /** Acked: the handler, callback receiver or pull worker succeeded. */
    ACKED,
    /** Moved to the dead letters: attempts exhausted (nacked or lease expired) or given up on. */
    DEAD,
    /** Cancelled before it ended otherwise. */
    CANCELLED
}
