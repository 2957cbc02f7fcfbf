package io.hourglass.internal;

import io.hourglass.JobEvents;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Writes the log lines of failed deliveries and dead letters to the logger {@value #LOGGER}, at most
 * {@value #LINES_PER_SECOND} a second per topic; the lines left out are counted and told in one summary line per topic
 * {@value #SUMMARY_EVERY_MS} ms after the first of them, so a failing topic cannot flood the log. One per Hourglass
 * instance, shared by its workers, callback delivery and pull API. Thread-safe.
 */
final class FailureLog {
    /** The SLF4J logger's name, for log configurations. */
    static final String LOGGER = "io.hourglass.failures";

    static final int LINES_PER_SECOND = 10;
    static final long SUMMARY_EVERY_MS = 10_000;
    /** The last error {@code claim.lua} gives a job that expired before delivery. */
    static final String EXPIRED = "expired";

    private static final Logger log = LoggerFactory.getLogger(LOGGER);
    /** A URL in an error, and the parts of it that may hold a secret: userinfo, query and fragment. */
    private static final Pattern URL = Pattern.compile("(?i)\\b(https?://)(?:[^\\s/@?#]*@)?([^\\s?#]*)[?#]?\\S*");

    private final LogRateLimiter limiter;
    private final ScheduledExecutorService timer;
    private final JobEvents events;

    FailureLog(ScheduledExecutorService timer, JobEvents events) {
        this(
                timer,
                new LogRateLimiter(LINES_PER_SECOND, SUMMARY_EVERY_MS, () -> System.nanoTime() / 1_000_000),
                events);
    }

    FailureLog(ScheduledExecutorService timer, LogRateLimiter limiter, JobEvents events) {
        this.timer = timer;
        this.limiter = limiter;
        this.events = events;
    }

    /** A failed attempt that will be retried at {@code nextDue} (Redis's clock). */
    void retried(
            String topic,
            String id,
            int attempt,
            int maxAttempts,
            Instant nextDue,
            String error,
            Throwable cause,
            System.Logger.Level level,
            boolean stackTraces) {
        Level at = retriedLevel(level);
        if (at != null && log.isEnabledForLevel(at) && admitted(topic)) {
            log.atLevel(at)
                    .setCause(stackTraces || log.isDebugEnabled() ? cause : null)
                    .log(
                            "topic {}: job {} failed on attempt {}/{}; next attempt due at {}: {}",
                            topic,
                            id,
                            attempt,
                            maxAttempts,
                            nextDue,
                            redacted(error));
        }
    }

    /**
     * A failed attempt after which the job goes to the dead letters with {@code error} as its last error.
     *
     * @param how what ended the job, e.g. "failed on attempt 3/3"
     */
    void dead(
            String topic,
            String id,
            String how,
            String error,
            Throwable cause,
            System.Logger.Level level,
            boolean stackTraces) {
        Level at = deadLevel(level);
        if (at != null && log.isEnabledForLevel(at) && admitted(topic)) {
            log.atLevel(at)
                    .setCause(stackTraces || log.isDebugEnabled() ? cause : null)
                    .log(
                            "topic {}: job {} {}; dead: it goes to the dead letters with last error: {}",
                            topic,
                            id,
                            how,
                            redacted(error));
        }
        Events.notify(() -> events.deadLettered(topic, id, error));
    }

    /**
     * The jobs a claim's reaping moved to the dead letters because their lease expired on their last attempt (the
     * handler or pull worker that held them never answered, so only the process that made the claim can tell), and
     * those the claim found expired before delivery.
     */
    void reaped(String topic, List<ClaimBatch.Reaped> dead, System.Logger.Level level) {
        for (ClaimBatch.Reaped r : dead) {
            dead(
                    topic,
                    r.id(),
                    r.error().equals(EXPIRED)
                            ? "expired before it was delivered"
                            : "was not answered before its lease expired on its last attempt",
                    r.error(),
                    null,
                    level,
                    false);
        }
    }

    private boolean admitted(String topic) {
        LogRateLimiter.Decision decision = limiter.acquire(topic);
        if (decision == LogRateLimiter.Decision.SUPPRESS_FIRST) {
            try {
                timer.schedule(this::summarize, limiter.summaryEveryMs() + 1, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // The instance is closing: its last summary goes with it.
            }
        }
        return decision == LogRateLimiter.Decision.LOG;
    }

    /** Writes the summaries that are due. */
    void summarize() {
        for (LogRateLimiter.Summary s : limiter.drain()) {
            log.warn(
                    "topic {}: {} more failures in the last {} s not logged (at most {} lines a second per topic)",
                    s.key(),
                    s.suppressed(),
                    (s.overMs() + 500) / 1000,
                    LINES_PER_SECOND);
        }
    }

    /**
     * {@code error} with each URL in it cut to its scheme, host, port and path: a callback URL may carry a token in its
     * query or userinfo, and no secret may reach the log. The job's last error in Redis keeps the whole text.
     */
    static String redacted(String error) {
        if (error == null || !error.contains("://")) {
            return error;
        }
        Matcher m = URL.matcher(error);
        return m.replaceAll(r -> {
            String cut = r.group(1) + r.group(2);
            return Matcher.quoteReplacement(cut.length() == r.group().length() ? cut : cut + "?…");
        });
    }

    /** The SLF4J level of a retried failure's line, or null for none. */
    static Level retriedLevel(System.Logger.Level level) {
        return switch (level) {
            case ALL, TRACE -> Level.TRACE;
            case DEBUG -> Level.DEBUG;
            case INFO -> Level.INFO;
            case WARNING -> Level.WARN;
            case ERROR -> Level.ERROR;
            case OFF -> null;
        };
    }

    /** The SLF4J level of a dead letter's line: WARN, ERROR when failures are logged at ERROR, null when OFF. */
    static Level deadLevel(System.Logger.Level level) {
        return switch (level) {
            case OFF -> null;
            case ERROR -> Level.ERROR;
            default -> Level.WARN;
        };
    }
}
