package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Backoff;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.Inspector;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobHandler;
import io.hourglass.JobInfo;
import io.hourglass.JobPage;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.ScheduleResult;
import io.hourglass.TopicStats;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import io.hourglass.testkit.HourglassFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Completed jobs kept for a while: after its ack a job stays readable as COMPLETED, with its completion time, attempts
 * and result, in the idempotency window's own entry. Run once per shard count by its subclasses; the test kit checks
 * the invariants (a retained job is a reservation, not a job) after each test.
 */
abstract class CompletedRetentionSuite {
    static final String TOPIC = "invoices";

    static JobRequest.Builder job(String id) {
        return JobRequest.builder(TOPIC).id(id).payload("payload-" + id);
    }

    static Hourglass retaining(HourglassFactory factory, Duration retention) {
        return factory.create(b -> b.completedRetention(TOPIC, retention));
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Delivery reserveOne(Hourglass hourglass, String id) {
        List<Delivery> got = hourglass.reserve(TOPIC, 1, null);
        assertThat(got).extracting(Delivery::id).containsExactly(id);
        return got.get(0);
    }

    long entries(HourglassFactory factory, String key) {
        return TopicKeys.sum(
                getClass(),
                factory,
                TOPIC,
                // Fields of ended starting with '~' count stale elements of ended:order, not entries.
                (redis, prefix) -> key.equals("ended")
                        ? redis.hkeys(prefix + key).stream()
                                .filter(field -> !field.startsWith("~"))
                                .count()
                        : key.equals("completed") ? redis.zcard(prefix + key) : redis.llen(prefix + key));
    }

    @Test
    void anAckedJobStaysReadableAsCompletedWithItsResultInOneEntry(HourglassFactory factory) {
        Hourglass hourglass = retaining(factory, Duration.ofHours(1));
        hourglass.schedule(job("a").maxAttempts(3).build());
        Delivery d = reserveOne(hourglass, "a");
        Instant before = Instant.now();
        hourglass.ack(TOPIC, "a", d.receipt(), utf8("{\"invoice\":42}"));
        Instant after = Instant.now();

        JobInfo done = hourglass.get(TOPIC, "a").orElseThrow();
        assertThat(done.state()).isEqualTo(JobState.COMPLETED);
        assertThat(done.completedAt()).isBetween(before.minusMillis(50), after.plusMillis(50));
        assertThat(done.attempt()).isEqualTo(1);
        assertThat(done.maxAttempts()).isEqualTo(3);
        assertThat(done.payloadAsString()).isEqualTo("payload-a");
        assertThat(new String(done.result(), StandardCharsets.UTF_8)).isEqualTo("{\"invoice\":42}");
        assertThat(done.leaseUntil()).isNull();
        assertThat(done.lastError()).isNull();

        // It is no job in any queue: counts and deliveries do not see it, and the id stays reserved.
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
        assertThat(hourglass.reserve(TOPIC, 10, null)).isEmpty();
        assertThatThrownBy(() -> hourglass.schedule(job("a").build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .satisfies(e -> assertThat(
                                ((JobAlreadyExistsException) e).existing().ended())
                        .isEqualTo(ScheduleResult.Ended.ACKED));
        assertThat(hourglass.cancel(TOPIC, "a"))
                .as("a completed job is not a job to cancel")
                .isFalse();
        // One entry serves the retention and the idempotency window, its expiry in the listing's sorted set.
        assertThat(entries(factory, "ended")).isEqualTo(1);
        assertThat(entries(factory, "completed")).isEqualTo(1);
        assertThat(entries(factory, "ended:order")).isZero();
    }

    static final long BRIEF_MS = 2500;

    @Test
    void retainedJobsAreCountedAndListedExactlyUntilTheirRetentionEnds(HourglassFactory factory)
            throws InterruptedException {
        Hourglass keeping =
                factory.create(b -> b.idempotencyWindow(Duration.ZERO).completedRetention(TOPIC, Duration.ofHours(1)));
        Hourglass brief = factory.create(
                b -> b.idempotencyWindow(Duration.ZERO).completedRetention(TOPIC, Duration.ofMillis(BRIEF_MS)));
        for (int i = 0; i < 7; i++) {
            keeping.schedule(job("k" + i).maxAttempts(4).build());
            keeping.ack(TOPIC, "k" + i, reserveOne(keeping, "k" + i).receipt(), utf8("result"));
        }
        keeping.schedule(job("waiting").delay(Duration.ofHours(1)).build());
        List<Delivery> deliveries = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            brief.schedule(job("b" + i).build());
            deliveries.add(reserveOne(brief, "b" + i));
        }
        // Acked last, so that even on a busy machine the reads below come well within their retention.
        long briefAcked = System.currentTimeMillis();
        for (Delivery d : deliveries) {
            brief.ack(TOPIC, d.id(), d.receipt(), null);
        }
        Inspector inspector = keeping.inspector();
        assertThat(inspector.topic(TOPIC).completed()).isEqualTo(10);

        // Pages of 3 walk every retained job once, the sooner their retention ends the earlier.
        List<JobSummary> all = completed(inspector);
        assertThat(all)
                .extracting(JobSummary::id)
                .containsExactly("b0", "b1", "b2", "k0", "k1", "k2", "k3", "k4", "k5", "k6");
        JobSummary k3 = all.get(6);
        assertThat(k3.state()).isEqualTo(JobState.COMPLETED);
        assertThat(k3.completedAt())
                .isEqualTo(keeping.get(TOPIC, "k3").orElseThrow().completedAt());
        assertThat(k3.attempt()).isEqualTo(1);
        assertThat(k3.maxAttempts()).isEqualTo(4);
        assertThat(k3.payloadPreviewText()).isEqualTo("payload-k3");
        assertThat(k3.payloadBytes()).isEqualTo("payload-k3".length());
        assertThat(k3.leaseUntil()).isNull();
        assertThat(k3.diedAt()).isNull();

        Thread.sleep(Math.max(0, briefAcked + BRIEF_MS + 200 - System.currentTimeMillis()));
        // Exact before any call deleted the ended entries: the count and the listing leave them out by their score.
        assertThat(entries(factory, "completed")).isEqualTo(10);
        assertThat(inspector.topic(TOPIC).completed()).isEqualTo(7);
        assertThat(completed(inspector))
                .extracting(JobSummary::id)
                .containsExactly("k0", "k1", "k2", "k3", "k4", "k5", "k6");
        // An idle claim's trim deletes the expired entries from the listing's set too (the checker compares them).
        assertThat(brief.reserve(TOPIC, 1, null)).isEmpty();
        assertThat(entries(factory, "completed")).isEqualTo(7);
        assertThatThrownBy(() -> inspector.purge(TOPIC, JobState.COMPLETED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("state:");
    }

    static List<JobSummary> completed(Inspector inspector) {
        List<JobSummary> all = new ArrayList<>();
        String cursor = null;
        do {
            JobPage page = inspector.jobs(TOPIC, JobState.COMPLETED, cursor, 3);
            assertThat(page.jobs()).hasSizeLessThanOrEqualTo(3);
            all.addAll(page.jobs());
            cursor = page.nextCursor();
        } while (cursor != null && all.size() < 100);
        return all;
    }

    @Test
    void aHandlersReturnValueIsTheResultAndTheAttemptsCount(HourglassFactory factory) {
        Hourglass hourglass = retaining(factory, Duration.ofHours(1));
        hourglass.schedule(
                job("w").backoff(Backoff.fixed(Duration.ofMillis(10))).build());
        try (Worker worker = hourglass.subscribe(
                TOPIC,
                JobHandler.returning(job -> {
                    if (job.attempt() == 1) {
                        throw new IllegalStateException("first attempt fails");
                    }
                    return utf8("done on attempt " + job.attempt());
                }),
                WorkerOptions.builder().build())) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> hourglass.get(TOPIC, "w").map(JobInfo::state).orElse(null) == JobState.COMPLETED);
        }
        JobInfo done = hourglass.get(TOPIC, "w").orElseThrow();
        assertThat(done.attempt()).isEqualTo(2);
        assertThat(new String(done.result(), StandardCharsets.UTF_8)).isEqualTo("done on attempt 2");
    }

    @Test
    void aPlainHandlerCompletesWithoutAResult(HourglassFactory factory) {
        Hourglass hourglass = retaining(factory, Duration.ofHours(1));
        hourglass.schedule(job("p").build());
        try (Worker worker =
                hourglass.subscribe(TOPIC, job -> {}, WorkerOptions.builder().build())) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> hourglass.get(TOPIC, "p").map(JobInfo::state).orElse(null) == JobState.COMPLETED);
        }
        JobInfo done = hourglass.get(TOPIC, "p").orElseThrow();
        assertThat(done.result()).isNull();
        assertThat(done.attempt()).isEqualTo(1);
    }

    @Test
    void withRetentionOffAnAckedJobIsGoneAndItsResultDropped(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        hourglass.schedule(job("off").build());
        Delivery d = reserveOne(hourglass, "off");
        hourglass.ack(TOPIC, "off", d.receipt(), utf8("dropped"));

        assertThat(hourglass.get(TOPIC, "off")).isEmpty();
        // The idempotency window's entry stays as small as before: the outcome and its time, no record.
        assertThat(TopicKeys.sum(getClass(), factory, TOPIC, (redis, prefix) -> {
                    String value = redis.hget(prefix + "ended", "off");
                    return value != null && value.matches("A[0-9]+") ? 1 : 0;
                }))
                .isEqualTo(1);
    }

    @Test
    void aRetainedJobExpiresWithItsEntryAndTheIdIsFreeAgain(HourglassFactory factory) {
        Hourglass hourglass = factory.create(
                b -> b.idempotencyWindow(Duration.ZERO).completedRetention(TOPIC, Duration.ofMillis(400)));
        hourglass.schedule(job("e").build());
        hourglass.ack(TOPIC, "e", reserveOne(hourglass, "e").receipt(), null);
        assertThat(hourglass.get(TOPIC, "e").orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        // While retained, even with the window off, the id answers as the completed job it is.
        assertThatThrownBy(() -> hourglass.schedule(job("e").build())).isInstanceOf(JobAlreadyExistsException.class);

        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> hourglass.get(TOPIC, "e").isEmpty());
        assertThat(hourglass.schedule(job("e").build()).outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThat(hourglass.get(TOPIC, "e").orElseThrow().state()).isEqualTo(JobState.READY);
        assertThat(entries(factory, "ended"))
                .as("the schedule deleted the expired entry")
                .isZero();
    }

    @Test
    void expiredRetainedJobsAreRemovedByAnIdleClaim(HourglassFactory factory) throws InterruptedException {
        Hourglass hourglass = factory.create(
                b -> b.idempotencyWindow(Duration.ZERO).completedRetention(TOPIC, Duration.ofMillis(200)));
        for (int i = 0; i < 50; i++) {
            hourglass.schedule(job("x" + i).build());
        }
        int acked = 0;
        while (acked < 50) {
            for (Delivery d : hourglass.reserve(TOPIC, 50, null)) {
                hourglass.ack(TOPIC, d.id(), d.receipt(), utf8("r" + d.id()));
                acked++;
            }
        }
        assertThat(entries(factory, "ended")).isEqualTo(50);
        Thread.sleep(300);
        // No more traffic: a worker's sweep, a claim that finds nothing, deletes what expired.
        assertThat(hourglass.reserve(TOPIC, 1, null)).isEmpty();
        assertThat(entries(factory, "ended")).isZero();
        assertThat(entries(factory, "ended:order")).isZero();
        assertThat(entries(factory, "completed")).isZero();
    }

    @Test
    void aResultOverTheLimitIsRefusedAndChangesNothing(HourglassFactory factory) {
        Hourglass hourglass = retaining(factory, Duration.ofHours(1));
        hourglass.schedule(job("big").build());
        Delivery d = reserveOne(hourglass, "big");
        assertThatThrownBy(() -> hourglass.ack(TOPIC, "big", d.receipt(), new byte[Hourglass.MAX_RESULT_BYTES + 1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("result:");
        assertThat(hourglass.get(TOPIC, "big").orElseThrow().state()).isEqualTo(JobState.ACTIVE);

        byte[] largest = new byte[Hourglass.MAX_RESULT_BYTES];
        largest[0] = '\n';
        largest[largest.length - 1] = '|';
        hourglass.ack(TOPIC, "big", d.receipt(), largest);
        assertThat(hourglass.get(TOPIC, "big").orElseThrow().result()).isEqualTo(largest);
    }

    @Test
    void theRetentionIsSetPerTopic(HourglassFactory factory) {
        Hourglass hourglass =
                factory.create(b -> b.completedRetention(Duration.ofHours(1)).completedRetention(TOPIC, Duration.ZERO));
        hourglass.schedule(job("t").build());
        hourglass.schedule(JobRequest.builder("other").id("t").payload("x").build());
        hourglass.ack(TOPIC, "t", reserveOne(hourglass, "t").receipt(), null);
        Delivery other = hourglass.reserve("other", 1, null).get(0);
        hourglass.ack("other", "t", other.receipt(), null);

        assertThat(hourglass.get(TOPIC, "t")).isEmpty();
        assertThat(hourglass.get("other", "t").orElseThrow().state()).isEqualTo(JobState.COMPLETED);
        assertThatThrownBy(() -> Hourglass.builder().completedRetention(Duration.ofDays(367)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("completedRetention:");
    }
}
