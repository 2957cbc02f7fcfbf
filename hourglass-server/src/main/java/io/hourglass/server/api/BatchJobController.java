package io.hourglass.server.api;

import io.hourglass.Hourglass;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.OnConflict;
import io.hourglass.RedisUnavailableException;
import io.hourglass.ScheduleResult;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Producers' batch schedule (right {@code produce}): up to {@value BatchScheduleBody#MAX_JOBS} jobs in one request, one
 * outcome per job in order. The jobs are handed to the core together, so its per-shard batching sends them in a few
 * script calls per shard rather than one per job; a bad item is refused alone.
 */
@RestController
@Tag(name = "jobs", description = "Producers: schedule, read, reschedule and cancel jobs")
public class BatchJobController {
    private final Hourglass hourglass;
    private final RequestLimits limits;

    /**
     * @param hourglass the instance to serve
     * @param limits the server's limits on payloads and delays
     */
    public BatchJobController(Hourglass hourglass, RequestLimits limits) {
        this.hourglass = hourglass;
        this.limits = limits;
    }

    /**
     * Schedules a batch of jobs: 200 with one outcome per job, in order; 400 only when the batch itself is malformed
     * (no {@code jobs}, more than {@value BatchScheduleBody#MAX_JOBS}, a bad {@code onConflict}).
     */
    @PostMapping(path = "/v1/topics/{topic}/jobs:batch", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.PRODUCE)
    @Operation(
            summary = "Schedule up to 1000 jobs at once",
            description = "Each item is a job as POST /v1/topics/{topic}/jobs takes it; onConflict applies to all."
                    + " The answer holds one outcome per job, in order, with the status the single call would have"
                    + " answered (201, 200, 409, 400, 413, 503): a bad item is refused alone. The whole body is"
                    + " within the server's body limit (the payload limit plus 64 KiB).")
    @ApiResponse(responseCode = "200", description = "One outcome per job, in order")
    @ApiResponse(responseCode = "400", description = "The batch itself is malformed; nothing was scheduled")
    public BatchScheduleView schedule(
            @PathVariable String topic,
            @RequestParam(required = false) String onConflict,
            @RequestBody BatchScheduleBody body) {
        body.check();
        OnConflict conflict = JobController.onConflict(onConflict);
        List<Object> pending = new ArrayList<>(body.jobs().size());
        for (int i = 0; i < body.jobs().size(); i++) {
            ScheduleJobBody job = body.jobs().get(i);
            try {
                if (job == null) {
                    throw new IllegalArgumentException("jobs[" + i + "]: must be a job object, got null");
                }
                pending.add(hourglass.scheduleAsync(job.toJobRequest(topic, conflict, limits)));
            } catch (RuntimeException e) {
                pending.add(refused(e));
            }
        }
        List<BatchScheduleView.Item> results = new ArrayList<>(pending.size());
        for (Object p : pending) {
            if (p instanceof CompletableFuture<?> future) {
                try {
                    results.add(done((ScheduleResult) future.join()));
                } catch (CompletionException e) {
                    results.add(refused(e.getCause()));
                }
            } else {
                results.add((BatchScheduleView.Item) p);
            }
        }
        return new BatchScheduleView(results);
    }

    private static BatchScheduleView.Item done(ScheduleResult r) {
        return new BatchScheduleView.Item(
                r.outcome() == ScheduleResult.Outcome.KEPT ? 200 : 201, ScheduledJobView.of(r), null, null);
    }

    /** The item's answer for what refused it; anything unforeseen fails the request, as the single call would. */
    private static BatchScheduleView.Item refused(Throwable e) {
        if (e instanceof JobAlreadyExistsException exists) {
            ScheduleResult existing = exists.existing();
            return new BatchScheduleView.Item(
                    409,
                    null,
                    "id: " + e.getMessage(),
                    existing.ended() == null ? null : existing.ended().name());
        }
        if (e instanceof PayloadTooLargeException) {
            return new BatchScheduleView.Item(413, null, e.getMessage(), null);
        }
        if (e instanceof IllegalArgumentException) {
            return new BatchScheduleView.Item(400, null, e.getMessage(), null);
        }
        if (e instanceof RedisUnavailableException) {
            return new BatchScheduleView.Item(503, null, "Redis is unavailable; retry with onConflict=keep", null);
        }
        if (e instanceof RuntimeException r) {
            throw r;
        }
        throw new IllegalStateException(e);
    }
}
