package io.hourglass.server.api;

import io.hourglass.Hourglass;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.net.URI;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Producers' endpoints: schedule, read, cancel and reschedule jobs (right {@code produce}; reading a job also
 * {@code consume}).
 */
@RestController
@Tag(name = "jobs", description = "Producers: schedule, read, reschedule and cancel jobs")
@RequestMapping("/v1/topics/{topic}/jobs")
public class JobController {
    private final Hourglass hourglass;
    private final RequestLimits limits;

    /**
     * @param hourglass the instance to serve
     * @param limits the server's limits on payloads and delays
     */
    public JobController(Hourglass hourglass, RequestLimits limits) {
        this.hourglass = hourglass;
        this.limits = limits;
    }

    /**
     * Schedules a job: 201 when created or replaced, 200 when {@code onConflict=keep} found one, 409 when the id exists
     * (and {@code onConflict} is absent or {@code reject}). An id whose job ended (acked, cancelled, dead letter
     * deleted) within its idempotency window ({@code --idempotency-window}) counts as existing: the 200 and 409 answers
     * then name how ({@code ended}) and when ({@code endedAt}) it ended.
     */
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.PRODUCE)
    @Operation(
            summary = "Schedule a job",
            description = "Without delayMs or runAt the job is due now. onConflict: reject (default), replace or keep.")
    @ApiResponse(responseCode = "201", description = "Created, or replaced (onConflict=replace)")
    @ApiResponse(
            responseCode = "200",
            description = "onConflict=keep found the id: the existing job is kept, or the id is reserved by a job"
                    + " that ended within its idempotency window (ended, endedAt)")
    @ApiResponse(
            responseCode = "409",
            description = "The id exists, or is reserved by a job that ended within its idempotency window (ended,"
                    + " endedAt), and onConflict is absent or reject")
    public ResponseEntity<ScheduledJobView> schedule(
            @PathVariable String topic,
            @RequestParam(required = false) String onConflict,
            @RequestBody ScheduleJobBody body) {
        ScheduleResult result = hourglass.schedule(body.toJobRequest(topic, onConflict(onConflict), limits));
        if (result.outcome() == ScheduleResult.Outcome.KEPT) {
            return ResponseEntity.ok(ScheduledJobView.of(result));
        }
        return ResponseEntity.created(URI.create("/v1/topics/" + topic + "/jobs/" + result.id()))
                .body(ScheduledJobView.of(result));
    }

    /** Reads a job: 200, or 404 when there is none (never scheduled, acked or cancelled). */
    @GetMapping("/{id}")
    @RequiresRight({Right.PRODUCE, Right.CONSUME})
    @Operation(summary = "Read a job")
    @ApiResponse(responseCode = "200", description = "The job")
    @ApiResponse(responseCode = "404", description = "No such job (never scheduled, acked or cancelled)")
    public JobView get(@PathVariable String topic, @PathVariable String id) {
        return hourglass.get(topic, id).map(JobView::of).orElseThrow(() -> NotFoundException.job(topic, id));
    }

    /** Cancels a job in any state: 204, or 404 when there is none. */
    @DeleteMapping("/{id}")
    @RequiresRight(Right.PRODUCE)
    @Operation(summary = "Cancel a job in any state")
    @ApiResponse(responseCode = "204", description = "Cancelled")
    @ApiResponse(responseCode = "404", description = "No such job")
    public ResponseEntity<Void> cancel(@PathVariable String topic, @PathVariable String id) {
        if (!hourglass.cancel(topic, id)) {
            throw NotFoundException.job(topic, id);
        }
        return ResponseEntity.status(HttpStatus.NO_CONTENT).build();
    }

    /** Moves a job to a new due time: 200, 404 when there is none, 409 when it is dead. */
    @PostMapping(path = "/{id}/reschedule", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.PRODUCE)
    @Operation(summary = "Move a job to a new due time")
    @ApiResponse(responseCode = "200", description = "Rescheduled")
    @ApiResponse(responseCode = "404", description = "No such job")
    @ApiResponse(responseCode = "409", description = "The job is dead")
    public ScheduledJobView reschedule(
            @PathVariable String topic, @PathVariable String id, @RequestBody RescheduleBody body) {
        body.check();
        return (body.delayMs() != null
                        ? hourglass.reschedule(topic, id, limits.delay(body.delayMs(), "delayMs"))
                        : hourglass.reschedule(topic, id, limits.runAt(body.runAt())))
                .map(ScheduledJobView::of)
                .orElseThrow(() -> NotFoundException.job(topic, id));
    }

    static OnConflict onConflict(String value) {
        if (value == null) {
            return OnConflict.REJECT;
        }
        try {
            return OnConflict.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("onConflict: must be reject, replace or keep, got '" + value + "'");
        }
    }
}
