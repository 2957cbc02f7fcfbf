package io.hourglass.history.jdbc;

import java.time.Instant;

/**
 * What to read from the archive: every filter is optional (null: any), and a page holds at most {@link #limit()}
 * entries, newest completion first. Built with {@link #builder()}; immutable.
 *
 * @param topic only this topic, or null
 * @param jobId only this job id, or null
 * @param outcome only this outcome, or null
 * @param from only jobs completed at or after this instant, or null
 * @param to only jobs completed before this instant, or null
 * @param cursor continue after the page that returned it ({@link HistoryPage#nextCursor()}), or null for the first
 * @param limit the most entries a page holds, 1 to 1000
 */
public record HistoryQuery(
        String topic, String jobId, HistoryOutcome outcome, Instant from, Instant to, String cursor, int limit) {

    /** The page size when none is given. */
    public static final int DEFAULT_LIMIT = 100;

    /** The largest page size. */
    public static final int MAX_LIMIT = 1000;

    /** @throws IllegalArgumentException naming {@code limit}, {@code to} or {@code cursor} when bad */
    public HistoryQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit: must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        if (from != null && to != null && to.isBefore(from)) {
            throw new IllegalArgumentException("to: must not be before from, got from " + from + " and to " + to);
        }
        if (cursor != null) {
            Cursor.parse(cursor);
        }
    }

    /** @return a builder with no filter and {@link #DEFAULT_LIMIT} */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link HistoryQuery}. Not thread-safe. */
    public static final class Builder {
        private String topic;
        private String jobId;
        private HistoryOutcome outcome;
        private Instant from;
        private Instant to;
        private String cursor;
        private int limit = DEFAULT_LIMIT;

        private Builder() {}

        /**
         * @param topic only this topic; null for any
         * @return this builder
         */
        public Builder topic(String topic) {
            this.topic = topic;
            return this;
        }

        /**
         * @param jobId only this job id; null for any
         * @return this builder
         */
        public Builder jobId(String jobId) {
            this.jobId = jobId;
            return this;
        }

        /**
         * @param outcome only this outcome; null for any
         * @return this builder
         */
        public Builder outcome(HistoryOutcome outcome) {
            this.outcome = outcome;
            return this;
        }

        /**
         * @param from only jobs completed at or after it; null for no lower bound
         * @param to only jobs completed before it; null for no upper bound
         * @return this builder
         */
        public Builder completedBetween(Instant from, Instant to) {
            this.from = from;
            this.to = to;
            return this;
        }

        /**
         * @param cursor a previous page's {@link HistoryPage#nextCursor()}; null for the first page
         * @return this builder
         */
        public Builder cursor(String cursor) {
            this.cursor = cursor;
            return this;
        }

        /**
         * @param limit the most entries a page holds, 1 to {@link #MAX_LIMIT}
         * @return this builder
         */
        public Builder limit(int limit) {
            this.limit = limit;
            return this;
        }

        /**
         * @return the query
         * @throws IllegalArgumentException naming the bad field
         */
        public HistoryQuery build() {
            return new HistoryQuery(topic, jobId, outcome, from, to, cursor, limit);
        }
    }

    /** A page's end: the last entry's completion time (µs since the epoch) and row number. */
    record Cursor(long completedMicros, long seq) {
        static Cursor parse(String text) {
            int dash = text.indexOf('-');
            try {
                if (dash > 0) {
                    return new Cursor(
                            Long.parseLong(text.substring(0, dash)), Long.parseLong(text.substring(dash + 1)));
                }
            } catch (NumberFormatException e) {
                // Reported below with the cursor's text.
            }
            throw new IllegalArgumentException("cursor: not a cursor of this history, got " + text);
        }

        @Override
        public String toString() {
            return completedMicros + "-" + seq;
        }
    }
}
