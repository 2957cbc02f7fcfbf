package io.hourglass.server.api;

import io.hourglass.Hourglass;
import io.hourglass.HourglassException;
import io.hourglass.Inspector;
import io.hourglass.RunNowOutcome;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Operators' endpoints on a topic's jobs (right {@code admin}): list one state a page at a time, run now, purge. */
@RestController
@Tag(name = "topics")
@RequestMapping("/v1/topics/{topic}/jobs")
public class JobAdminController {
    /** Jobs in a page when the request does not say. */
    static final int DEFAULT_LIMIT = 50;

    private final Inspector inspector;

    /** @param hourglass the instance to serve */
    public JobAdminController(Hourglass hourglass) {
        this.inspector = hourglass.inspector();
    }

    /** @return one page of the topic's jobs in one state, with the cursor of the next page */
    @GetMapping
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "List a topic's jobs in one state, a page at a time",
            description = "Ordered by due time (lease deadline for ACTIVE, time of death for DEAD, end of retention for"
                    + " COMPLETED: the acked jobs retained by --completed-retention, in completion order when retained"
                    + " equally long), then by id, across all shards. Pass a page's nextCursor as cursor to read the next one; paging through a topic"
                    + " that does not change meanwhile yields every job once. O(log N + limit) at any backlog.")
    @ApiResponse(responseCode = "200", description = "The page")
    public JobPageView listJobs(
            @PathVariable String topic,
            @Parameter(
                            description = "the state to list",
                            schema = @Schema(allowableValues = {"scheduled", "ready", "active", "dead", "completed"}))
                    @RequestParam
                    String state,
            @Parameter(
                            description = "most jobs in the page, 1 to 1000",
                            schema =
                                    @Schema(
                                            type = "integer",
                                            format = "int32",
                                            minimum = "1",
                                            maximum = "1000",
                                            defaultValue = "" + DEFAULT_LIMIT))
                    @RequestParam(defaultValue = "" + DEFAULT_LIMIT)
                    int limit,
            @Parameter(description = "a page's nextCursor, to read the page after it; absent (or empty) for the first")
                    @RequestParam(required = false)
                    String cursor) {
        return JobPageView.of(inspector.jobs(
                topic, AdminLimits.listedState(state), cursor == null || cursor.isEmpty() ? null : cursor, limit));
    }

    /** @return how many of the topic's jobs in the state were deleted */
    @DeleteMapping
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Purge a topic's jobs in one state",
            description = "Deletes every job of the topic in the state. Purging active ends the deliveries in"
                    + " progress: their ack, nack or extend is then refused (409). Any query parameter but state is"
                    + " refused.")
    @ApiResponse(responseCode = "200", description = "How many jobs were deleted")
    public PurgedView purge(
            @PathVariable String topic,
            @Parameter(
                            description = "the state to purge",
                            schema = @Schema(allowableValues = {"scheduled", "ready", "active", "dead"}))
                    @RequestParam
                    String state,
            HttpServletRequest request) {
        AdminLimits.onlyParameters(request, "state");
        return new PurgedView(inspector.purge(topic, AdminLimits.state(state)));
    }

    /** Makes a scheduled job due now: 200, 404 when there is none, 409 when it is active or dead. */
    @PostMapping("/{id}/run")
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Run a scheduled job now",
            description = "Makes a SCHEDULED job due at the Redis server's now and wakes the workers; a READY job is"
                    + " left as it is.")
    @ApiResponse(responseCode = "200", description = "MADE_READY, or ALREADY_READY")
    @ApiResponse(responseCode = "404", description = "No such job")
    @ApiResponse(responseCode = "409", description = "The job is ACTIVE (leased to a worker) or DEAD")
    public RunNowView runNow(@PathVariable String topic, @PathVariable String id) {
        RunNowOutcome outcome = inspector.runNow(topic, id);
        return switch (outcome) {
            case MADE_READY, ALREADY_READY -> new RunNowView(id, outcome.name());
            case NOT_FOUND -> throw NotFoundException.job(topic, id);
            case ACTIVE ->
                throw new HourglassException(
                        "job '" + id + "' is ACTIVE (leased to a worker), so it cannot be run now");
            case DEAD ->
                throw new HourglassException(
                        "job '" + id + "' is DEAD; requeue it (POST .../dead/" + id + "/requeue) instead");
        };
    }
}
