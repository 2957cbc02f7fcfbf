package io.hourglass.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Limits log lines per key (a topic) to a number per second, and counts the lines it refuses so that one summary line
 * per period can tell how many were left out. Neither SLF4J nor Logback's classic API (nor Lettuce's dependencies)
 * limits one logger's lines per key, hence this class. Thread-safe.
 */
final class LogRateLimiter {
    /** What {@link #acquire} decided. */
    enum Decision {
        /** Log the line. */
        LOG,
        /** Leave the line out; it is the first left out since the last summary: a summary is due in one period. */
        SUPPRESS_FIRST,
        /** Leave the line out. */
        SUPPRESS
    }

    /** Lines left out for {@code key} over the last {@code overMs} milliseconds. */
    record Summary(String key, long suppressed, long overMs) {}

    private static final long WINDOW_MS = 1000;

    private final int perSecond;
    private final long summaryEveryMs;
    private final LongSupplier clockMs;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    /**
     * @param perSecond lines logged per key in each second
     * @param summaryEveryMs how long after the first line left out its summary is due
     * @param clockMs the time in milliseconds (monotonic)
     */
    LogRateLimiter(int perSecond, long summaryEveryMs, LongSupplier clockMs) {
        this.perSecond = perSecond;
        this.summaryEveryMs = summaryEveryMs;
        this.clockMs = clockMs;
    }

    long summaryEveryMs() {
        return summaryEveryMs;
    }

    Decision acquire(String key) {
        long now = clockMs.getAsLong();
        while (true) {
            State s = states.computeIfAbsent(key, k -> new State(now));
            synchronized (s) {
                if (!s.forgotten) {
                    return acquire(s, now);
                }
            }
        }
    }

    /** The caller holds {@code s}'s lock. */
    private Decision acquire(State s, long now) {
        if (now - s.windowStartMs >= WINDOW_MS) {
            s.windowStartMs = now;
            s.used = 0;
        }
        if (s.used < perSecond) {
            s.used++;
            return Decision.LOG;
        }
        if (s.suppressed++ == 0) {
            s.suppressedSinceMs = now;
            return Decision.SUPPRESS_FIRST;
        }
        return Decision.SUPPRESS;
    }

    /**
     * @return the summaries due (a period has passed since their first line left out), each counted once; keys idle for
     *     a period are forgotten
     */
    List<Summary> drain() {
        long now = clockMs.getAsLong();
        List<Summary> due = new ArrayList<>();
        states.forEach((key, s) -> {
            synchronized (s) {
                if (s.suppressed > 0 && now - s.suppressedSinceMs >= summaryEveryMs) {
                    due.add(new Summary(key, s.suppressed, now - s.suppressedSinceMs));
                    s.suppressed = 0;
                }
                if (s.suppressed == 0 && now - s.windowStartMs >= summaryEveryMs) {
                    s.forgotten = true;
                    states.remove(key, s);
                }
            }
        });
        return due;
    }

    private static final class State {
        long windowStartMs;
        int used;
        long suppressed;
        long suppressedSinceMs;
        /** Removed from the map: a caller that still holds it takes a fresh one. */
        boolean forgotten;

        State(long now) {
            this.windowStartMs = now;
        }
    }
}
