package io.hourglass.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Backoff;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@code POST /v1/topics/{topic}/jobs}. Only {@code payload} is required; without {@code delayMs} or
 * {@code runAt} the job is due now.
 *
 * @param id the job's id, or null to have one generated
 * @param delayMs due this many milliseconds from now (Redis's clock)
 * @param runAt due at this ISO-8601 instant
 * @param payload any JSON value, stored as its JSON text
 * @param callbackUrl http(s) URL to POST the job to when due, instead of handing it to pull workers
 * @param maxAttempts deliveries before the job goes to the dead letters
 * @param backoffMs the delays before each retry (a stepped backoff; the last step repeats)
 * @param leaseMs how long one delivery is leased to a worker
 */
public record ScheduleJobBody(String id, Long delayMs, String runAt, JsonNode payload, String callbackUrl,
    Integer maxAttempts, List<Long> backoffMs, Long leaseMs) {

  /**
   * @param topic the topic from the path
   * @param onConflict what to do when the id exists
   * @return the request for Hourglass
   * @throws IllegalArgumentException naming the field when the body is not valid
   */
  public JobRequest toJobRequest(String topic, OnConflict onConflict) {
    if (payload == null) {
      throw new IllegalArgumentException("payload: required (any JSON value)");
    }
    DueTimes.checkExclusive(delayMs, runAt);
    JobRequest.Builder b = JobRequest.builder(topic).id(id).payload(Payloads.toBytes(payload))
        .onConflict(onConflict);
    if (delayMs != null) {
      b.delay(DueTimes.delay(delayMs, "delayMs"));
    } else if (runAt != null) {
      b.runAt(DueTimes.runAt(runAt));
    }
    if (callbackUrl != null) {
      b.callbackUrl(callbackUri());
    }
    if (maxAttempts != null) {
      b.maxAttempts(maxAttempts);
    }
    if (backoffMs != null) {
      b.backoff(backoff());
    }
    if (leaseMs != null) {
      b.lease(Duration.ofMillis(leaseMs));
    }
    return b.build();
  }

  private URI callbackUri() {
    try {
      return new URI(callbackUrl);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("callbackUrl: must be an absolute http or https URL, got '" + callbackUrl
          + "'");
    }
  }

  private Backoff backoff() {
    if (backoffMs.isEmpty()) {
      throw new IllegalArgumentException("backoffMs: needs at least one delay");
    }
    List<Duration> steps = new ArrayList<>();
    for (int i = 0; i < backoffMs.size(); i++) {
      Long ms = backoffMs.get(i);
      if (ms == null || ms < 0) {
        throw new IllegalArgumentException("backoffMs[" + i + "]: must be zero or positive, got " + ms);
      }
      steps.add(Duration.ofMillis(ms));
    }
    return Backoff.stepped(steps);
  }
}
