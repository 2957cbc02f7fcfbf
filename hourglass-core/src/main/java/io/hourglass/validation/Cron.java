package io.hourglass.validation;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A cron expression in a time zone, parsed by cron-utils (not by Hourglass): five fields ({@code minute hour
 * day-of-month month day-of-week}, Unix cron) or six with seconds first ({@code second minute hour day-of-month month
 * day-of-week}, Spring's {@code CronExpression} format).
 *
 * <p>Fire times are computed by cron-utils' {@code ExecutionTime} on {@link ZonedDateTime}s of the zone, so they follow
 * the zone's daylight-saving rules as {@link ZonedDateTime} resolves local times: a wall-clock time that a
 * spring-forward gap skips is not a fire time that day (cron-utils moves on to the next existing match), and a
 * wall-clock time that a fall-back overlap repeats fires once, at its first (earlier-offset) occurrence. Zones without
 * daylight saving (UTC, the default of a schedule) have neither case. Immutable and thread-safe.
 */
public final class Cron {
    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final CronParser WITH_SECONDS =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING53));
    /** What a cron expression may hold: it is stored in a '|'-separated header, so no '|', no line break. */
    private static final Pattern CHARACTERS = Pattern.compile("[A-Za-z0-9*?/,#\\- ]{1,200}");

    private final String expression;
    private final ZoneId zone;
    private final ExecutionTime executionTime;

    private Cron(String expression, ZoneId zone, ExecutionTime executionTime) {
        this.expression = expression;
        this.zone = zone;
        this.executionTime = executionTime;
    }

    /**
     * @param expression five fields, or six with seconds first; fields separated by spaces
     * @param zone the time zone the fields are read in; not null
     * @return the parsed expression
     * @throws IllegalArgumentException naming {@code cron} when the expression is not valid, or {@code zone} when null
     */
    public static Cron parse(String expression, ZoneId zone) {
        if (zone == null) {
            throw new IllegalArgumentException("zone: must be given");
        }
        String trimmed = expression == null ? "" : expression.trim();
        if (!CHARACTERS.matcher(trimmed).matches()) {
            throw new IllegalArgumentException("cron: must be 1 to 200 characters of [A-Za-z0-9*?/,#- ], got "
                    + (expression == null ? "null" : "'" + abbreviate(expression) + "'"));
        }
        int fields = trimmed.split(" +").length;
        if (fields != 5 && fields != 6) {
            throw new IllegalArgumentException("cron: must have 5 fields (minute hour day-of-month month day-of-week)"
                    + " or 6 with seconds first, got " + fields + " in '" + trimmed + "'");
        }
        try {
            com.cronutils.model.Cron cron = (fields == 5 ? UNIX : WITH_SECONDS).parse(trimmed);
            cron.validate();
            return new Cron(trimmed.replaceAll(" +", " "), zone, ExecutionTime.forCron(cron));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cron: '" + trimmed + "' is not valid: " + e.getMessage(), e);
        }
    }

    /**
     * @param zone a time zone id, e.g. {@code Europe/Berlin} or {@code UTC}
     * @return the zone
     * @throws IllegalArgumentException naming {@code zone} when it is not a known zone id
     */
    public static ZoneId zone(String zone) {
        try {
            return ZoneId.of(Objects.requireNonNull(zone, "zone"));
        } catch (DateTimeException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "zone: not a time zone id: " + (zone == null ? "null" : "'" + abbreviate(zone) + "'"));
        }
    }

    /** @return the expression with single spaces between its fields */
    public String expression() {
        return expression;
    }

    /** @return the zone the fields are read in */
    public ZoneId zone() {
        return zone;
    }

    /**
     * @param after an instant; not null
     * @return the first fire time strictly after {@code after}, or null when there is none (e.g. a past year)
     */
    public Instant next(Instant after) {
        // Fire times are whole seconds; cron-utils carries a start's fraction of a second into what it returns.
        Optional<ZonedDateTime> next = executionTime.nextExecution(
                after.truncatedTo(ChronoUnit.SECONDS).atZone(zone));
        return next.map(t -> t.toInstant().truncatedTo(ChronoUnit.SECONDS)).orElse(null);
    }

    /**
     * @param before an instant; not null
     * @return the last fire time strictly before {@code before}, or null when there is none
     */
    public Instant previous(Instant before) {
        Instant whole = before.truncatedTo(ChronoUnit.SECONDS);
        Instant bound = whole.equals(before) ? whole : whole.plusSeconds(1);
        Optional<ZonedDateTime> last = executionTime.lastExecution(bound.atZone(zone));
        return last.map(t -> t.toInstant().truncatedTo(ChronoUnit.SECONDS)).orElse(null);
    }

    private static String abbreviate(String s) {
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
