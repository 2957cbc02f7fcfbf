package io.hourglass.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Backoff;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.OnExpiry;
import io.swagger.v3.oas.annotations.media.Schema;
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
 * @param payload any JSON value, stored as its JSON text; arrays and objects nested at most 100 deep
 * @param callbackUrl http(s) URL to POST the job to when due, instead of handing it to pull workers
 * @param maxAttempts deliveries before the job goes to the dead letters
 * @param backoffMs the delays before each retry (a stepped backoff; the last step repeats)
 * @param leaseMs how long one delivery is leased to a worker
 * @param expiresAt the ISO-8601 instant after which the job is never delivered (not with {@code ttlMs})
 * @param ttlMs the job is never delivered later than this many ms after its due time (not with {@code expiresAt})
 * @param onExpiry {@code dead_letter} (the default) or {@code drop}: what happens to a job that expired undelivered
 * @param failureCallbackUrl http(s) URL a failure notice is POSTed to when the job goes to the dead letters
 * @param priority -5 to 5, higher first among the topic's due jobs; 0 when absent
 * @param dispatchDeadlineMs how long one callback request of the job may take, in ms (only with {@code callbackUrl})
 */
public record ScheduleJobBody(
        @Schema(description = "the job's id, or null to have one generated")
        String id,

        @Schema(description = "due this many milliseconds from now (Redis's clock)")
        Long delayMs,

        @Schema(description = "due at this ISO-8601 instant")
        String runAt,

        @Schema(
                description = "any JSON value, stored as its JSON text; arrays and objects nested at most 100 deep",
                requiredMode = Schema.RequiredMode.REQUIRED)
        JsonNode payload,

        @Schema(description = "http(s) URL to POST the job to when due, instead of handing it to pull workers")
        String callbackUrl,

        @Schema(description = "deliveries before the job goes to the dead letters")
        Integer maxAttempts,

        @Schema(description = "the delays before each retry (a stepped backoff; the last step repeats)")
        List<Long> backoffMs,

        @Schema(description = "how long one delivery is leased to a worker")
        Long leaseMs,

        @Schema(description = "the ISO-8601 instant after which the job is never delivered (not with ttlMs)")
        String expiresAt,

        @Schema(
                description =
                        "the job is never delivered later than this many ms after its due time (not with expiresAt)")
        Long ttlMs,

        @Schema(
                description = "what happens to a job that expired undelivered: dead_letter (the default) or drop",
                allowableValues = {"dead_letter", "drop"})
        String onExpiry,

        @Schema(description = "http(s) URL a failure notice is POSTed to when the job goes to the dead letters")
        String failureCallbackUrl,

        @Schema(
                description = "-5 to 5, higher first among the topic's due jobs (strict: see the README's Priorities);"
                        + " 0 when absent",
                minimum = "-5",
                maximum = "5")
        Integer priority,

        @Schema(
                description = "how long one callback request of the job may take, connect to last byte, in ms, instead"
                        + " of the server's callback timeout; 1 to the server's maximum (30 min by default); only with"
                        + " callbackUrl")
        Long dispatchDeadlineMs) {

    /**
     * @param topic the topic from the path
     * @param onConflict what to do when the id exists
     * @param limits the server's limits
     * @return the request for Hourglass
     * @throws IllegalArgumentException naming the field when the body is not valid
     * @throws PayloadTooLargeException when the payload is larger than the limit
     */
    JobRequest toJobRequest(String topic, OnConflict onConflict, RequestLimits limits) {
        if (payload == null) {
            throw new IllegalArgumentException("payload: required (any JSON value)");
        }
        DueTimes.checkExclusive(delayMs, runAt);
        JobRequest.Builder b = JobRequest.builder(topic).id(id).onConflict(onConflict);
        if (delayMs != null) {
            b.delay(limits.delay(delayMs, "delayMs"));
        } else if (runAt != null) {
            b.runAt(limits.runAt(runAt));
        }
        if (callbackUrl != null) {
            b.callbackUrl(uri(callbackUrl, "callbackUrl"));
        }
        if (maxAttempts != null) {
            b.maxAttempts(maxAttempts);
        }
        if (backoffMs != null) {
            b.backoff(backoff(limits));
        }
        if (leaseMs != null) {
            b.lease(Duration.ofMillis(leaseMs));
        }
        expiry(b, limits);
        if (failureCallbackUrl != null) {
            b.failureCallbackUrl(uri(failureCallbackUrl, "failureCallbackUrl"));
        }
        if (priority != null) {
            b.priority(priority);
        }
        if (dispatchDeadlineMs != null) {
            b.dispatchDeadline(limits.dispatchDeadline(dispatchDeadlineMs));
        }
        return b.payload(limits.payload(payload)).build();
    }

    private void expiry(JobRequest.Builder b, RequestLimits limits) {
        if (expiresAt != null && ttlMs != null) {
            throw new IllegalArgumentException("expiresAt: give either expiresAt or ttlMs, not both");
        }
        if (expiresAt != null) {
            b.expiresAt(DueTimes.instant(expiresAt, "expiresAt"));
        }
        if (ttlMs != null) {
            if (ttlMs < 1) {
                throw new IllegalArgumentException("ttlMs: must be positive, got " + ttlMs);
            }
            b.ttl(limits.delay(ttlMs, "ttlMs"));
        }
        if (onExpiry != null) {
            b.onExpiry(
                    switch (onExpiry) {
                        case "dead_letter" -> OnExpiry.DEAD_LETTER;
                        case "drop" -> OnExpiry.DROP;
                        default ->
                            throw new IllegalArgumentException(
                                    "onExpiry: must be dead_letter or drop, got '" + onExpiry + "'");
                    });
        }
    }

    private static URI uri(String text, String field) {
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(field + ": must be an absolute http or https URL, got '" + text + "'");
        }
    }

    private Backoff backoff(RequestLimits limits) {
        if (backoffMs.isEmpty() || backoffMs.size() > RequestLimits.MAX_BACKOFF_STEPS) {
            throw new IllegalArgumentException(
                    "backoffMs: needs 1 to " + RequestLimits.MAX_BACKOFF_STEPS + " delays, got " + backoffMs.size());
        }
        List<Duration> steps = new ArrayList<>();
        for (int i = 0; i < backoffMs.size(); i++) {
            Long ms = backoffMs.get(i);
            if (ms == null) {
                throw new IllegalArgumentException("backoffMs[" + i + "]: must be an integer, got null");
            }
            steps.add(limits.delay(ms, "backoffMs[" + i + "]"));
        }
        return Backoff.stepped(steps);
    }
}
