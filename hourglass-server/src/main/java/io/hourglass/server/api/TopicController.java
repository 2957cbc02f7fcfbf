package io.hourglass.server.api;

import io.hourglass.Hourglass;
import io.hourglass.Inspector;
import io.hourglass.server.auth.ApiToken;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Operators' endpoints on topics (right {@code admin}): overviews, per-minute history, pause and resume, and the dead
 * letters (listing, requeue and delete, one by one or in bulk).
 */
@RestController
@Tag(name = "topics", description = "Operators: topic overviews, history, pause and resume, dead letters")
@RequestMapping("/v1/topics")
public class TopicController {
    private final Hourglass hourglass;
    private final Inspector inspector;

    /** @param hourglass the instance to serve */
    public TopicController(Hourglass hourglass) {
        this.hourglass = hourglass;
        this.inspector = hourglass.inspector();
    }

    /**
     * @param caller the authenticated token
     * @return every topic of the namespace that the caller's token covers, sorted by name
     */
    @GetMapping
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Every topic the token covers, sorted by name",
            description = "Counts per state, pause, latency and next due time of each topic that has been used.")
    @ApiResponse(responseCode = "200", description = "The topics")
    public List<TopicView> topics(@RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller) {
        return inspector.topics().stream()
                .filter(overview -> caller.covers(overview.topic()))
                .map(TopicView::of)
                .toList();
    }

    /** @return one topic's overview (all zero for a topic never used) */
    @GetMapping("/{topic}")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "One topic: counts per state, pause, latency and next due time (all zero if never used)")
    @ApiResponse(responseCode = "200", description = "The topic")
    public TopicView topic(@PathVariable String topic) {
        return TopicView.of(inspector.topic(topic));
    }

    /** @return the topic's jobs processed and failed per minute over the last 24 hours, oldest first */
    @GetMapping("/{topic}/history")
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Jobs processed and failed per minute over the last 24 hours, oldest first",
            description = "Only the minutes with a count are listed. Counted in Redis by the transitions themselves,"
                    + " across every process.")
    @ApiResponse(responseCode = "200", description = "The history")
    public HistoryView history(@PathVariable String topic) {
        return HistoryView.of(topic, inspector.history(topic), inspector.expired(topic));
    }

    /** Pauses the topic in every process: its jobs are given to no worker, callback or reservation until resumed. */
    @PostMapping("/{topic}/pause")
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Pause a topic",
            description = "From their next claim on (within the sweep interval, 1 s by default), no worker, callback"
                    + " delivery or reservation of any process is given the topic's jobs. Deliveries in progress go"
                    + " on and may be acked; scheduling is still accepted. Kept in Redis until resumed. Idempotent.")
    @ApiResponse(responseCode = "200", description = "Paused: the topic")
    public TopicView pause(@PathVariable String topic) {
        inspector.pause(topic);
        return TopicView.of(inspector.topic(topic));
    }

    /** Resumes the topic and wakes its workers in every process. */
    @PostMapping("/{topic}/resume")
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Resume a paused topic",
            description =
                    "Wakes the topic's workers in every process, so they claim its ready jobs at once. Idempotent.")
    @ApiResponse(responseCode = "200", description = "Resumed: the topic")
    public TopicView resume(@PathVariable String topic) {
        inspector.resume(topic);
        return TopicView.of(inspector.topic(topic));
    }

    /** @return the topic's dead letters, oldest death first */
    @GetMapping("/{topic}/dead")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "List a topic's dead letters, oldest death first")
    @ApiResponse(responseCode = "200", description = "The dead jobs, with their last error")
    public List<JobView> deadLetters(
            @PathVariable String topic,
            @RequestParam(defaultValue = "0") int offset,
            @RequestParam(defaultValue = "100") int limit) {
        return hourglass.deadLetters(topic, offset, limit).stream()
                .map(JobView::of)
                .toList();
    }

    /** Puts a dead letter back to READY with its attempts reset: 204, 404 when none, 409 when not dead. */
    @PostMapping("/{topic}/dead/{id}/requeue")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "Put a dead letter back to READY with its attempts reset")
    @ApiResponse(responseCode = "204", description = "Requeued")
    @ApiResponse(responseCode = "404", description = "No such job")
    @ApiResponse(responseCode = "409", description = "The job is not dead")
    public ResponseEntity<Void> requeue(@PathVariable String topic, @PathVariable String id) {
        if (!hourglass.requeueDead(topic, id)) {
            throw NotFoundException.deadLetter(topic, id);
        }
        return ResponseEntity.noContent().build();
    }

    /** Deletes a dead letter: 204, or 404 when there is no such dead job. */
    @DeleteMapping("/{topic}/dead/{id}")
    @RequiresRight(Right.ADMIN)
    @Operation(summary = "Delete a dead letter")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(responseCode = "404", description = "No such dead job")
    public ResponseEntity<Void> deleteDead(@PathVariable String topic, @PathVariable String id) {
        if (!hourglass.deleteDead(topic, id)) {
            throw NotFoundException.deadLetter(topic, id);
        }
        return ResponseEntity.noContent().build();
    }

    /** Requeues every dead letter of the topic ({@code {}}) or the given ones ({@code {"ids": [...]}}). */
    @PostMapping(path = "/{topic}/dead/requeue", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Requeue dead letters: all of the topic's, or the given ids",
            description = "Puts them back to READY with their attempts reset. Body {} for all, {\"ids\": [...]} (1"
                    + " to 1000 ids) for some; ids that are not dead letters of the topic are skipped.")
    @ApiResponse(responseCode = "200", description = "How many were requeued")
    public RequeuedView requeueDead(@PathVariable String topic, @RequestBody RequeueDeadBody body) {
        List<String> ids = body.checkedIds();
        return new RequeuedView(ids == null ? inspector.requeueAllDead(topic) : inspector.requeueDead(topic, ids));
    }

    /** Deletes every dead letter of the topic, or those named by {@code ?id=}. */
    @DeleteMapping("/{topic}/dead")
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "Delete dead letters: all of the topic's, or the given ids",
            description = "Without a query, every dead letter of the topic; with ?id=a&id=b (1 to 1000 ids, within"
                    + " the request line's limit of 8 KB) only those; ids that are not dead letters of the topic are"
                    + " skipped. Any other query parameter is refused, so that a misspelt one cannot widen the delete"
                    + " to all.")
    @ApiResponse(responseCode = "200", description = "How many were deleted")
    @Parameter(
            name = "id",
            in = ParameterIn.QUERY,
            description = "a dead letter's id; repeat it for several; absent for all",
            array = @ArraySchema(schema = @Schema(type = "string"), minItems = 1, maxItems = AdminLimits.MAX_IDS))
    public DeletedView deleteDeadLetters(@PathVariable String topic, HttpServletRequest request) {
        AdminLimits.onlyParameters(request, "id");
        String[] ids = request.getParameterValues("id");
        if (ids == null) {
            return new DeletedView(inspector.deleteAllDead(topic));
        }
        return new DeletedView(inspector.deleteDead(topic, AdminLimits.ids("id", Arrays.asList(ids))));
    }
}
