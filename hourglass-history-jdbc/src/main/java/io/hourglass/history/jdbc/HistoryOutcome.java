package io.hourglass.history.jdbc;

/** How a job ended, as its completion event and its history row say. */
public enum HistoryOutcome {
    /** Acked: the handler, callback receiver or pull worker succeeded. */
    ACKED,
    /** Moved to the dead letters: attempts exhausted (nacked or lease expired) or given up on. */
    DEAD,
    /** Cancelled before it ended otherwise. */
    CANCELLED,
    /**
     * Not delivered before its expiry ({@code expiresAt} or TTL): moved to the dead letters with the error
     * {@code expired}, or dropped, as its {@code onExpiry} said.
     */
    EXPIRED,
    /**
     * A dead letter deleted because its topic's dead letters exceeded their count or age limits; the job had a
     * {@code DEAD} (or {@code EXPIRED}) event when it died.
     */
    TRIMMED
}
