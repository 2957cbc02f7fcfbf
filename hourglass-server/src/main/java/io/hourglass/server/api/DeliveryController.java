package io.hourglass.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobState;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Pull workers' endpoints (right {@code consume}): reserve due jobs (long polling), then ack, nack or extend each
 * delivery.
 */
@RestController
@Tag(name = "deliveries", description = "Pull workers: reserve due jobs, then ack, nack or extend each delivery")
@RequestMapping("/v1/topics/{topic}")
public class DeliveryController {
    private static final Logger log = LoggerFactory.getLogger(DeliveryController.class);

    private final Hourglass hourglass;
    private final RequestLimits limits;
    private final PullMetrics metrics;

    /**
     * @param hourglass the instance to serve
     * @param limits the server's limits on delays
     * @param metrics where pull workers' deliveries, acks and nacks are counted
     */
    public DeliveryController(Hourglass hourglass, RequestLimits limits, PullMetrics metrics) {
        this.hourglass = hourglass;
        this.limits = limits;
        this.metrics = metrics;
    }

    /**
     * Claims up to {@code max} due jobs, waiting up to {@code waitMs} for one to come due. Answers 200 with the
     * deliveries as soon as there is at least one, or with an empty list when the wait ends. A topic into which no job
     * was scheduled yet is waited on like any other: workers often start before the first producer. The body may be
     * omitted. A claimed job whose payload cannot be handed out as JSON (one scheduled through the library, nested
     * deeper than the API allows) goes to the dead letters with an error that says so, and the rest of the batch is
     * delivered: a reply never fails after its jobs were claimed, which would leave them leased to nobody.
     */
    @PostMapping(path = "/reservations", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.CONSUME)
    @Operation(
            summary = "Reserve due jobs (long polling)",
            description = "Claims up to max due jobs, waiting up to waitMs for one to come due, also on a topic that"
                    + " has no job yet; each delivery is leased for leaseMs. The body may be omitted.")
    @ApiResponse(
            responseCode = "200",
            description = "The deliveries: at least one as soon as one is due, or none when the wait ends")
    public CompletableFuture<List<DeliveryView>> reserve(
            @PathVariable String topic, @RequestBody(required = false) ReservationBody body) {
        ReservationBody b = body == null ? new ReservationBody(null, null, null) : body;
        int max = b.maxOrDefault();
        Duration lease = b.leaseOrNull();
        Duration wait = b.waitOrDefault();
        return hourglass.reserveAsync(topic, max, lease, wait).thenApply(deliveries -> {
            List<DeliveryView> views = new ArrayList<>(deliveries.size());
            List<Delivery> delivered = new ArrayList<>(deliveries.size());
            for (Delivery d : deliveries) {
                try {
                    views.add(DeliveryView.of(d));
                    delivered.add(d);
                } catch (Payloads.UndeliverablePayloadException e) {
                    deadLetter(d, e.getMessage());
                }
            }
            metrics.reserved(delivered);
            return views;
        });
    }

    /**
     * Off the thread that completed the reservation: that may be Redis's I/O thread, which must not wait for a reply of
     * its own. A dead-lettering that fails leaves the job to its lease, after which it is claimed again.
     */
    private void deadLetter(Delivery d, String error) {
        CompletableFuture.runAsync(() -> hourglass.deadLetter(d.topic(), d.id(), d.receipt(), error))
                .whenComplete((r, e) -> {
                    if (e == null) {
                        metrics.nacked(d.topic(), JobState.DEAD);
                    } else {
                        log.warn(
                                "job {} in topic {} cannot be delivered ({}) and could not be dead-lettered; it is"
                                        + " claimed again when its lease expires: {}",
                                d.id(),
                                d.topic(),
                                error,
                                e.toString());
                    }
                });
    }

    /**
     * Acknowledges a delivery (the job is done, and deleted or kept as COMPLETED with its result while completed jobs
     * are kept): 204, 400 for a bad receipt or result, or 409 when the receipt is stale.
     */
    @PostMapping(path = "/jobs/{id}/ack", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.CONSUME)
    @Operation(
            summary = "Acknowledge a delivery: the job is done and deleted, or kept as COMPLETED with its result while"
                    + " completed jobs are kept (--completed-retention)")
    @ApiResponse(responseCode = "204", description = "Acked")
    @ApiResponse(responseCode = "409", description = "The receipt is stale: not the job's current delivery")
    public ResponseEntity<Void> ack(@PathVariable String topic, @PathVariable String id, @RequestBody AckBody body) {
        String receipt = Receipts.check(body.receipt());
        JsonNode result = body.result();
        hourglass.ack(topic, id, receipt, result == null || result.isNull() ? null : Payloads.resultToBytes(result));
        metrics.acked(topic);
        return ResponseEntity.noContent().build();
    }

    /** Reports a failed delivery (retry after the delay or backoff, or dead): 204, or 409 when stale. */
    @PostMapping(path = "/jobs/{id}/nack", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.CONSUME)
    @Operation(summary = "Report a failed delivery")
    @ApiResponse(
            responseCode = "204",
            description = "Retried after retryDelayMs or the job's backoff, or dead after its last attempt")
    @ApiResponse(responseCode = "409", description = "The receipt is stale")
    public ResponseEntity<Void> nack(@PathVariable String topic, @PathVariable String id, @RequestBody NackBody body) {
        JobState state =
                hourglass.nack(topic, id, Receipts.check(body.receipt()), body.error(), body.retryDelayOrNull(limits));
        metrics.nacked(topic, state);
        return ResponseEntity.noContent().build();
    }

    /** Extends a delivery's lease to {@code leaseMs} from now: 200 with the new deadline, or 409 when stale. */
    @PostMapping(path = "/jobs/{id}/extend", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RequiresRight(Right.CONSUME)
    @Operation(summary = "Extend a delivery's lease to leaseMs from now")
    @ApiResponse(responseCode = "200", description = "The new lease deadline")
    @ApiResponse(responseCode = "409", description = "The receipt is stale")
    public LeaseView extend(@PathVariable String topic, @PathVariable String id, @RequestBody ExtendBody body) {
        return new LeaseView(hourglass
                .extend(topic, id, Receipts.check(body.receipt()), body.lease())
                .toString());
    }
}
