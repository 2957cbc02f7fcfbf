package io.hourglass.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Schedule;
import io.swagger.v3.oas.annotations.media.Schema;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;

/**
 * The body of {@code PUT /v1/schedules/{name}}. {@code topic}, {@code cron} and {@code payload} are required.
 *
 * @param topic the topic of the jobs the schedule creates
 * @param cron five fields (minute hour day-of-month month day-of-week) or six with seconds first
 * @param zone the time zone the cron fields are read in, e.g. Europe/Berlin; UTC when absent
 * @param payload each job's payload: any JSON value, stored as its JSON text
 * @param callbackUrl http(s) URL each job is POSTed to, instead of handing it to pull workers
 * @param maxAttempts each job's deliveries before it goes to the dead letters
 * @param leaseMs how long one delivery of each job is leased to a worker
 * @param misfirePolicy {@code fire_once} (the default) or {@code skip}: what happens to ticks missed by more than 60 s
 */
public record ScheduleBody(
        @Schema(description = "the topic of the jobs the schedule creates", requiredMode = Schema.RequiredMode.REQUIRED)
        String topic,

        @Schema(
                description = "five fields (minute hour day-of-month month day-of-week) or six with seconds first",
                example = "0 3 * * *",
                requiredMode = Schema.RequiredMode.REQUIRED)
        String cron,

        @Schema(description = "the time zone the cron fields are read in, e.g. Europe/Berlin; UTC when absent")
        String zone,

        @Schema(
                description = "each job's payload: any JSON value, stored as its JSON text",
                requiredMode = Schema.RequiredMode.REQUIRED)
        JsonNode payload,

        @Schema(description = "http(s) URL each job is POSTed to, instead of handing it to pull workers")
        String callbackUrl,

        @Schema(description = "each job's deliveries before it goes to the dead letters")
        Integer maxAttempts,

        @Schema(description = "how long one delivery of each job is leased to a worker")
        Long leaseMs,

        @Schema(
                description = "what happens to ticks missed by more than 60 s: fire_once (the default) runs them once,"
                        + " skip does not run them",
                allowableValues = {"fire_once", "skip"})
        String misfirePolicy) {

    /**
     * @param name the schedule's name from the path
     * @param limits the server's limits
     * @return the schedule
     * @throws IllegalArgumentException naming the field when the body is not valid
     * @throws PayloadTooLargeException when the payload is larger than the limit
     */
    Schedule toSchedule(String name, RequestLimits limits) {
        if (topic == null) {
            throw new IllegalArgumentException("topic: required");
        }
        if (cron == null) {
            throw new IllegalArgumentException("cron: required, e.g. \"0 3 * * *\"");
        }
        if (payload == null) {
            throw new IllegalArgumentException("payload: required (any JSON value)");
        }
        Schedule.Builder b = Schedule.builder(name, topic, cron).payload(limits.payload(payload));
        if (zone != null) {
            b.zone(zone);
        }
        if (callbackUrl != null) {
            try {
                b.callbackUrl(new URI(callbackUrl));
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(
                        "callbackUrl: must be an absolute http or https URL, got '" + callbackUrl + "'");
            }
        }
        if (maxAttempts != null) {
            b.maxAttempts(maxAttempts);
        }
        if (leaseMs != null) {
            b.lease(Duration.ofMillis(leaseMs));
        }
        if (misfirePolicy != null) {
            b.misfirePolicy(policy(misfirePolicy));
        }
        return b.build();
    }

    private static Schedule.MisfirePolicy policy(String text) {
        for (Schedule.MisfirePolicy p : Schedule.MisfirePolicy.values()) {
            if (p.name().toLowerCase(Locale.ROOT).equals(text)) {
                return p;
            }
        }
        throw new IllegalArgumentException("misfirePolicy: must be fire_once or skip, got '" + text + "'");
    }
}
