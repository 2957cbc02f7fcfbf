package io.hourglass.history.jdbc;

import java.util.List;

/**
 * One page of a history query, newest completion first.
 *
 * @param entries the page's entries; immutable, not null
 * @param nextCursor the cursor of the next page ({@link HistoryQuery.Builder#cursor}), or null when this is the last
 */
public record HistoryPage(List<HistoryEntry> entries, String nextCursor) {
    /** Copies {@code entries}. */
    public HistoryPage {
        entries = List.copyOf(entries);
    }
}
