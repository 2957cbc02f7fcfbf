package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.hourglass.Backoff;
import io.hourglass.Delivery;
import io.hourglass.HourglassBuilder;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.OnExpiry;
import io.hourglass.ScheduleResult;
import io.hourglass.StorageFormat;
import io.hourglass.StorageFormat.StoredRecord;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What a job record looks like in Redis: fields at their stored defaults take no bytes, because every byte of a record
 * is paid once per job in the backlog (a job with defaults stores its payload alone, so a 30-byte one fits jemalloc's
 * 32-byte size class); a delivery in progress lives in the shard's leases, so claims and acks leave records as they
 * are.
 */
@RedisTest
class JobRecordFormatIntegrationTests {
    private static final String JOBS = "hg:{fmt:t:0}:jobs";
    private static final String LEASES = "hg:{fmt:t:0}:leases";

    private static String record(RedisServerProcess redis, String id) {
        return RawRedis.hget(redis, JOBS, id);
    }

    @Test
    void aJobWithDefaultsStoresItsPayloadAloneUnlessThePayloadBeginsAsAHeaderDoes(
            HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt"));
        Instant due = Instant.ofEpochMilli(System.currentTimeMillis() + 86_400_000L);
        Map<String, String> payloads = Map.of("plain", "order-42", "empty", "", "digit", "42 apples", "minus", "-1");
        payloads.forEach((id, payload) -> hourglass.schedule(
                JobRequest.builder("t").id(id).payload(payload).runAt(due).build()));

        assertThat(record(redis, "plain")).isEqualTo("order-42");
        assertThat(record(redis, "empty")).isEmpty();
        assertThat(record(redis, "digit")).isEqualTo(due.toEpochMilli() + "\n42 apples");
        assertThat(record(redis, "minus")).isEqualTo(due.toEpochMilli() + "\n-1");
        payloads.forEach((id, payload) -> assertThat(hourglass.get("t", id).orElseThrow())
                .extracting(JobInfo::dueAt, j -> new String(j.payload(), StandardCharsets.UTF_8))
                .containsExactly(due, payload));
        assertThat(hourglass.inspector().jobs("t", JobState.SCHEDULED, null, 10).jobs())
                .extracting(JobSummary::id, JobSummary::dueAt)
                .containsExactlyInAnyOrder(
                        tuple("plain", due), tuple("empty", due), tuple("digit", due), tuple("minus", due));
    }

    @Test
    void aBareRecordsDueTimeTravelsWithItsLeaseAndAnyRewriteGivesItAHeader(
            HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt"));
        Instant due = Instant.ofEpochMilli(System.currentTimeMillis() - 1000);
        hourglass.schedule(
                JobRequest.builder("t").id("bare").payload("a|b\nc").runAt(due).build());
        assertThat(record(redis, "bare")).isEqualTo("a|b\nc");
        assertThat(hourglass.inspector().jobs("t", JobState.READY, null, 10).jobs())
                .singleElement()
                .extracting(JobSummary::dueAt)
                .isEqualTo(due);

        Delivery d = hourglass.reserve("t", 1, null).get(0);
        assertThat(d.dueAt()).isEqualTo(due);
        assertThat(d.payloadAsString()).isEqualTo("a|b\nc");
        assertThat(d.receipt()).endsWith("@" + due.toEpochMilli());
        assertThat(record(redis, "bare")).isEqualTo("a|b\nc");
        JobInfo active = hourglass.get("t", "bare").orElseThrow();
        assertThat(active.state()).isEqualTo(JobState.ACTIVE);
        assertThat(active.dueAt()).isEqualTo(due);
        assertThat(hourglass.inspector().jobs("t", JobState.ACTIVE, null, 10).jobs())
                .singleElement()
                .extracting(JobSummary::dueAt)
                .isEqualTo(due);

        hourglass.nack("t", "bare", d.receipt(), "boom", Duration.ofHours(1));
        StoredRecord retried =
                StorageFormat.decode(RawRedis.hget(redis, JOBS, "bare").getBytes(StandardCharsets.UTF_8));
        assertThat(retried.failedAttempts()).isEqualTo(1);
        assertThat(retried.originalDueMs()).isEqualTo(due.toEpochMilli());
        assertThat(new String(retried.payload(), StandardCharsets.UTF_8)).isEqualTo("a|b\nc");
    }

    @Test
    void aBareRecordThatLostItsPlaceIsDeliveredAsDueNowRatherThanFailTheClaim(
            HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt"));
        hourglass.schedule(JobRequest.builder("t")
                .id("lost")
                .payload("x")
                .delay(Duration.ofDays(1))
                .build());
        // Broken by hand: a bare record (priority 0) in the prio set, whose score is not its due time.
        long band = 5L << 42;
        RawRedis.call(redis, r -> {
            r.zrem("hg:{fmt:t:0}:w:waiting", "lost");
            return r.zadd("hg:{fmt:t:0}:w:prio", band + System.currentTimeMillis() - 1000, "lost");
        });
        Instant before = Instant.now().minusSeconds(5);

        Delivery d = hourglass.reserve("t", 1, null).get(0);
        assertThat(d.id()).isEqualTo("lost");
        assertThat(d.dueAt()).isBetween(before, Instant.now().plusSeconds(5));
        assertThat(hourglass.get("t", "lost").orElseThrow().dueAt()).isEqualTo(d.dueAt());
        hourglass.ack("t", "lost", d.receipt());
        assertThat(record(redis, "lost")).isNull();
    }

    @Test
    void aClaimLeavesTheRecordAsItIsAndKeepsItsReceiptInTheLeases(HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt"));
        Instant due = Instant.ofEpochMilli(System.currentTimeMillis() - 1000);
        hourglass.schedule(
                JobRequest.builder("t").id("plain").payload("1|b\nc").runAt(due).build());

        Delivery d = hourglass.reserve("t", 1, null).get(0);
        assertThat(record(redis, "plain")).isEqualTo(due.toEpochMilli() + "\n1|b\nc");
        assertThat(RawRedis.hget(redis, LEASES, "plain")).isEqualTo(d.receipt()).doesNotContain("@");
        assertThat(d.attempt()).isEqualTo(1);
        assertThat(d.dueAt()).isEqualTo(due);
        assertThat(d.leaseUntil()).isAfter(Instant.now().plusSeconds(25));
        assertThat(d.payloadAsString()).isEqualTo("1|b\nc");

        hourglass.ack("t", "plain", d.receipt());
        assertThat(RawRedis.hget(redis, LEASES, "plain")).isNull();
        assertThat(record(redis, "plain")).isNull();
    }

    @Test
    void fieldsAwayFromTheirDefaultsAreWrittenAndTheirDeliveriesRoundTrip(
            HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt"));
        hourglass.schedule(JobRequest.builder("t")
                .id("custom")
                .payload("p")
                .maxAttempts(3)
                .lease(Duration.ofSeconds(5))
                .build());
        String scheduled = record(redis, "custom");
        assertThat(scheduled).matches("\\d{13}\\|\\|3\\|5000\np");

        Delivery d = hourglass.reserve("t", 1, null).get(0);
        assertThat(record(redis, "custom")).isEqualTo(scheduled);
        assertThat(d.attempt()).isEqualTo(1);
        assertThat(d.leaseUntil()).isBefore(Instant.now().plusSeconds(6));
        assertThat(d.payloadAsString()).isEqualTo("p");

        hourglass.nack("t", "custom", d.receipt(), "boom", Duration.ofHours(1));
        // The retry's due time is the first field; the first due time is kept in the eighth.
        assertThat(record(redis, "custom")).matches("\\d{13}\\|1\\|3\\|5000\\|\\|\\|\\|\\d{13}\np");
        assertThat(RawRedis.hget(redis, LEASES, "custom")).isNull();
        assertThat(hourglass.get("t", "custom").orElseThrow())
                .extracting(j -> j.attempt(), j -> j.maxAttempts())
                .containsExactly(1, 3);
    }

    @Test
    void aFieldAloneAwayFromItsDefaultIsWrittenAndDefaultsGivenExplicitlyAreNot(
            HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt"));
        Map<String, UnaryOperator<JobRequest.Builder>> jobs = Map.of(
                "window", b -> b.idempotencyWindow(Duration.ofMinutes(10)),
                "backoff", b -> b.backoff(Backoff.fixed(Duration.ofSeconds(7))),
                "explicit",
                        b -> b.maxAttempts(HourglassBuilder.DEFAULT_MAX_ATTEMPTS)
                                .lease(HourglassBuilder.DEFAULT_LEASE)
                                .idempotencyWindow(HourglassBuilder.DEFAULT_IDEMPOTENCY_WINDOW)
                                .backoff(Backoff.DEFAULT));
        jobs.forEach((id, fields) -> hourglass.schedule(
                fields.apply(JobRequest.builder("t").id(id).payload("p")).build()));

        assertThat(record(redis, "window")).matches("\\d{13}(\\|){6}600000\np");
        assertThat(record(redis, "backoff"))
                .matches("\\d{13}(\\|){4}"
                        + Pattern.quote(Backoff.fixed(Duration.ofSeconds(7)).spec()) + "\np");
        assertThat(record(redis, "explicit")).isEqualTo("p");
    }

    @Test
    void aPriorityIsTheTwelfthFieldAndTheDefaultOneIsLeftOut(HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt"));
        hourglass.schedule(
                JobRequest.builder("t").id("urgent").payload("p").priority(-4).build());
        hourglass.schedule(
                JobRequest.builder("t").id("plain").payload("p").priority(0).build());
        assertThat(record(redis, "urgent")).matches("\\d{13}(\\|){11}-4\np");
        assertThat(record(redis, "plain")).isEqualTo("p");
        assertThat(hourglass.get("t", "urgent").orElseThrow().priority()).isEqualTo(-4);
    }

    @Test
    void aRetryKeepsTheFirstDueTimeARescheduleSetsANewOneAndTheExpiryFieldsRoundTrip(
            HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt").callbackAllowList(List.of("203.0.113.7")));
        long due = System.currentTimeMillis() - 1000;
        long expires = due + 86_400_000L;
        String failureUrl = "http://203.0.113.7/failed";
        hourglass.schedule(JobRequest.builder("t")
                .id("exp")
                .payload("p")
                .runAt(Instant.ofEpochMilli(due))
                .expiresAt(Instant.ofEpochMilli(expires))
                .onExpiry(OnExpiry.DROP)
                .failureCallbackUrl(URI.create(failureUrl))
                .build());
        assertThat(record(redis, "exp")).isEqualTo(due + "||||||||" + expires + "|drop|" + failureUrl + "\np");

        Delivery d = hourglass.reserve("t", 1, null).get(0);
        hourglass.nack("t", "exp", d.receipt(), "boom", Duration.ofHours(1));
        StoredRecord retried =
                StorageFormat.decode(RawRedis.hget(redis, JOBS, "exp").getBytes(StandardCharsets.UTF_8));
        assertThat(retried.dueMs()).isGreaterThan(due + 3_000_000L);
        assertThat(retried.originalDueMs()).isEqualTo(due);
        assertThat(retried.expiresAtMs()).isEqualTo(expires);
        assertThat(retried.onExpiry()).isEqualTo(OnExpiry.DROP);
        assertThat(retried.failureCallbackUrl()).isEqualTo(failureUrl);
        JobInfo info = hourglass.get("t", "exp").orElseThrow();
        assertThat(info.expiresAt()).isEqualTo(Instant.ofEpochMilli(expires));
        assertThat(info.failureCallbackUrl()).isEqualTo(URI.create(failureUrl));

        ScheduleResult moved =
                hourglass.reschedule("t", "exp", Duration.ofHours(2)).orElseThrow();
        StoredRecord rescheduled =
                StorageFormat.decode(RawRedis.hget(redis, JOBS, "exp").getBytes(StandardCharsets.UTF_8));
        assertThat(rescheduled.originalDueMs())
                .isEqualTo(moved.dueAt().toEpochMilli())
                .isEqualTo(rescheduled.dueMs());
        assertThat(record(redis, "exp")).contains("|1|||||||" + expires + "|drop|");
    }

    @Test
    void aNackCountsTheFailedAttemptWhateverThePayloadHolds(HourglassFactory factory, RedisServerProcess redis) {
        var hourglass = factory.create(b -> b.namespace("fmt"));
        String payload = "a|b\nc|d\n";
        hourglass.schedule(JobRequest.builder("t")
                .id("odd")
                .payload(payload)
                .backoff(Backoff.fixed(Duration.ZERO))
                .build());
        String scheduled = record(redis, "odd");
        assertThat(scheduled).matches("\\d{13}\\|\\|\\|\\|[^|\n]+\n" + Pattern.quote(payload));

        Delivery first = hourglass.reserve("t", 1, null).get(0);
        assertThat(record(redis, "odd")).isEqualTo(scheduled);
        assertThat(first.leaseUntil()).isAfter(Instant.now().plusSeconds(25));
        hourglass.nack("t", "odd", first.receipt(), "boom", Duration.ZERO);
        String header = scheduled.substring(0, scheduled.indexOf('\n'));
        String backoff = header.substring(header.lastIndexOf('|'));
        // A retry due in the same millisecond as the first due time stores no first due time.
        assertThat(record(redis, "odd"))
                .matches("\\d{13}\\|1\\|\\|" + Pattern.quote(backoff) + "(\\|\\|\\|\\d{13})?\n"
                        + Pattern.quote(payload));

        Delivery second = hourglass.reserve("t", 1, null).get(0);
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(second.payloadAsString()).isEqualTo(payload);
        assertThat(hourglass.get("t", "odd").orElseThrow().attempt()).isEqualTo(2);
    }
}
