package io.hourglass.server.api;

import io.hourglass.Hourglass;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Pull workers' endpoints: reserve due jobs (long polling), then ack, nack or extend each delivery. */
@RestController
@RequestMapping("/v1/topics/{topic}")
public class DeliveryController {
  private final Hourglass hourglass;

  /** @param hourglass the instance to serve */
  public DeliveryController(Hourglass hourglass) {
    this.hourglass = hourglass;
  }

  /**
   * Claims up to {@code max} due jobs, waiting up to {@code waitMs} for one to come due. Answers 200 with the
   * deliveries as soon as there is at least one, or with an empty list when the wait ends. The body may be omitted.
   */
  @PostMapping(path = "/reservations", consumes = MediaType.APPLICATION_JSON_VALUE)
  public CompletableFuture<List<DeliveryView>> reserve(@PathVariable String topic,
      @RequestBody(required = false) ReservationBody body) {
    ReservationBody b = body == null ? new ReservationBody(null, null, null) : body;
    return hourglass.reserveAsync(topic, b.maxOrDefault(), b.leaseOrNull(), b.waitOrDefault())
        .thenApply(deliveries -> deliveries.stream().map(DeliveryView::of).toList());
  }

  /** Acknowledges a delivery (the job is done and deleted): 204, or 409 when the receipt is stale. */
  @PostMapping(path = "/jobs/{id}/ack", consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Void> ack(@PathVariable String topic, @PathVariable String id, @RequestBody AckBody body) {
    hourglass.ack(topic, id, body.receipt());
    return ResponseEntity.noContent().build();
  }

  /** Reports a failed delivery (retry after the delay or backoff, or dead): 204, or 409 when stale. */
  @PostMapping(path = "/jobs/{id}/nack", consumes = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Void> nack(@PathVariable String topic, @PathVariable String id, @RequestBody NackBody body) {
    hourglass.nack(topic, id, body.receipt(), body.error(), body.retryDelayOrNull());
    return ResponseEntity.noContent().build();
  }

  /** Extends a delivery's lease to {@code leaseMs} from now: 200 with the new deadline, or 409 when stale. */
  @PostMapping(path = "/jobs/{id}/extend", consumes = MediaType.APPLICATION_JSON_VALUE)
  public LeaseView extend(@PathVariable String topic, @PathVariable String id, @RequestBody ExtendBody body) {
    return new LeaseView(hourglass.extend(topic, id, body.receipt(), body.lease()).toString());
  }
}
