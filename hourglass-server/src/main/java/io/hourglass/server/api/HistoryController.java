package io.hourglass.server.api;

import io.hourglass.history.jdbc.HistoryOutcome;
import io.hourglass.history.jdbc.HistoryQuery;
import io.hourglass.history.jdbc.HistoryStore;
import io.hourglass.server.auth.AccessDeniedException;
import io.hourglass.server.auth.ApiToken;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/history}: the job history in PostgreSQL ({@code --history-jdbc-url}), what happened to jobs that
 * ended, a page at a time. 404 when the server keeps no history; 503 while PostgreSQL does not answer. A token limited
 * to some topics reads only their history, and must name the topic.
 */
@RestController
@Tag(name = "history", description = "The job history in PostgreSQL (--history-jdbc-url): jobs that ended")
public class HistoryController {
    private static final Logger log = LoggerFactory.getLogger(HistoryController.class);
    /** 9999-12-31T23:59:59.999Z, the latest time the API takes, in ms since the epoch. */
    private static final long LATEST_MS = 253_402_300_799_999L;

    private static final String[] PARAMETERS = {"topic", "id", "outcome", "from", "to", "cursor", "limit"};

    private final ObjectProvider<HistoryStore> store;

    /** @param store the history's store; absent when the server keeps no history */
    public HistoryController(ObjectProvider<HistoryStore> store) {
        this.store = store;
    }

    /** @return one page of matching entries, newest completion first, with the cursor of the next page */
    @GetMapping("/v1/history")
    @RequiresRight({Right.PRODUCE, Right.CONSUME})
    @Operation(
            summary = "Search the job history: jobs that ended (acked, dead, cancelled …), newest first",
            description = "Every filter is optional and they combine. Pass a page's nextCursor as cursor for the next"
                    + " page. A token limited to some topics must give topic, one of its own; a token for every"
                    + " topic (\"*\") may leave it out. Times are those of the Redis server's clock.")
    @ApiResponse(responseCode = "200", description = "The page")
    @ApiResponse(responseCode = "400", description = "A bad or unknown parameter")
    @ApiResponse(responseCode = "403", description = "The token does not cover the topic, or none was given")
    @ApiResponse(responseCode = "404", description = "The server keeps no job history (no --history-jdbc-url)")
    @ApiResponse(responseCode = "503", description = "PostgreSQL does not answer; retry later")
    public HistoryPageView history(
            @Parameter(description = "only this topic; required with a token limited to some topics")
                    @RequestParam(required = false)
                    String topic,
            @Parameter(description = "only this job id") @RequestParam(required = false) String id,
            @Parameter(description = "only this outcome: ACKED, DEAD, CANCELLED, … (any case)")
                    @RequestParam(required = false)
                    String outcome,
            @Parameter(
                            description = "only jobs that ended at or after this time: an ISO-8601 instant"
                                    + " (2030-01-01T00:00:00Z) or ms since the epoch")
                    @RequestParam(required = false)
                    String from,
            @Parameter(description = "only jobs that ended before this time: an ISO-8601 instant or ms since the epoch")
                    @RequestParam(required = false)
                    String to,
            @Parameter(description = "a page's nextCursor, to read the page after it; absent (or empty) for the first")
                    @RequestParam(required = false)
                    String cursor,
            @Parameter(
                            description = "most entries in the page, 1 to " + HistoryQuery.MAX_LIMIT,
                            schema =
                                    @Schema(
                                            type = "integer",
                                            format = "int32",
                                            minimum = "1",
                                            maximum = "" + HistoryQuery.MAX_LIMIT,
                                            defaultValue = "" + HistoryQuery.DEFAULT_LIMIT))
                    @RequestParam(defaultValue = "" + HistoryQuery.DEFAULT_LIMIT)
                    int limit,
            @RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller,
            HttpServletRequest request)
            throws SQLException {
        if (topic == null || topic.isEmpty()) {
            if (!caller.coversEveryTopic()) {
                throw new AccessDeniedException(
                        "topic: required: this token is limited to some topics, so it reads their history one"
                                + " topic at a time");
            }
        } else if (!caller.covers(topic)) {
            throw new AccessDeniedException("Authorization: this token does not cover topic '" + topic + "'");
        }
        HistoryStore history = store.getIfAvailable();
        if (history == null) {
            throw new NotFoundException(
                    "history: this server keeps no job history; start it with --history-jdbc-url to keep one");
        }
        AdminLimits.onlyParameters(request, PARAMETERS);
        HistoryQuery query = HistoryQuery.builder()
                .topic(blankToNull(topic))
                .jobId(blankToNull(id))
                .outcome(outcome == null || outcome.isEmpty() ? null : outcome(outcome))
                .completedBetween(time(from, "from"), time(to, "to"))
                .cursor(blankToNull(cursor))
                .limit(limit)
                .build();
        return HistoryPageView.of(history.query(query));
    }

    /** @return 503 with {@code Retry-After}: PostgreSQL refused or did not answer in time */
    @ExceptionHandler(SQLException.class)
    public ResponseEntity<Map<String, String>> databaseUnavailable(SQLException e) {
        log.warn("answering 503: the job history's PostgreSQL failed: {}", e.toString());
        return ApiExceptionHandler.databaseUnavailable(
                "history: PostgreSQL did not answer the query: " + e.getMessage());
    }

    private static HistoryOutcome outcome(String text) {
        for (HistoryOutcome o : HistoryOutcome.values()) {
            if (o.name().equalsIgnoreCase(text)) {
                return o;
            }
        }
        throw new IllegalArgumentException("outcome: must be one of "
                + Arrays.stream(HistoryOutcome.values()).map(Enum::name).collect(Collectors.joining(", "))
                + ", got '" + (text.length() > 100 ? text.substring(0, 100) + "..." : text) + "'");
    }

    /** An ISO-8601 instant or ms since the epoch; null for absent or empty. */
    static Instant time(String text, String field) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (text.chars().allMatch(Character::isDigit)) {
            if (text.length() <= 15 && Long.parseLong(text) <= LATEST_MS) {
                return Instant.ofEpochMilli(Long.parseLong(text));
            }
            throw new IllegalArgumentException(
                    field + ": must be at most " + LATEST_MS + " ms since the epoch (year 9999), got '" + text + "'");
        }
        return DueTimes.instant(text, field);
    }

    private static String blankToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }
}
