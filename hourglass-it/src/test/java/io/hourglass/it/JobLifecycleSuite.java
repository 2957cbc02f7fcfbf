package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Backoff;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.HourglassException;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.StaleReceiptException;
import io.hourglass.TopicStats;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The state machine through the pull API (schedule, reserve, ack, nack, extend, cancel, reschedule, dead letters), run
 * once per shard count by its subclasses. The test kit checks the invariants after each test.
 */
abstract class JobLifecycleSuite {
    static final String TOPIC = "orders";

    static JobRequest.Builder job(String id) {
        return JobRequest.builder(TOPIC).id(id).payload("payload-" + id);
    }

    static Delivery reserveOne(Hourglass hourglass) {
        List<Delivery> got = hourglass.reserve(TOPIC, 1, null);
        assertThat(got).hasSize(1);
        return got.get(0);
    }

    static JobState stateOf(Hourglass hourglass, String id) {
        return hourglass.get(TOPIC, id).map(JobInfo::state).orElse(null);
    }

    /**
     * Whether a job due an hour or more ahead waits in Redis, where stats count it: true here; false where the suite
     * runs with a cold tier, which holds such jobs in PostgreSQL (stats count the jobs in Redis only).
     */
    boolean farJobsInRedis() {
        return true;
    }

    /** {@code n} jobs due an hour or more ahead, as the stats count them. */
    long inRedisIfFar(long n) {
        return farJobsInRedis() ? n : 0;
    }

    @Test
    void aJobGoesFromScheduledToReadyToActiveAndIsGoneWhenAcked(Hourglass hourglass) {
        ScheduleResult scheduled =
                hourglass.schedule(job("a").delay(Duration.ofMillis(300)).build());
        assertThat(scheduled.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(scheduled.outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThat(hourglass.reserve(TOPIC, 10, null)).as("not yet due").isEmpty();

        await().atMost(Duration.ofSeconds(2)).until(() -> stateOf(hourglass, "a") == JobState.READY);
        Delivery d = reserveOne(hourglass);
        assertThat(Instant.now()).isAfterOrEqualTo(scheduled.dueAt());
        assertThat(d.id()).isEqualTo("a");
        assertThat(d.payloadAsString()).isEqualTo("payload-a");
        assertThat(d.attempt()).isEqualTo(1);
        assertThat(d.dueAt()).isEqualTo(scheduled.dueAt());
        JobInfo active = hourglass.get(TOPIC, "a").orElseThrow();
        assertThat(active.state()).isEqualTo(JobState.ACTIVE);
        assertThat(active.leaseUntil()).isEqualTo(d.leaseUntil());

        hourglass.ack(TOPIC, "a", d.receipt());
        assertThat(hourglass.get(TOPIC, "a")).isEmpty();
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
    }

    @Test
    void manyAcksAtOnceEachGetTheirOwnOutcome(Hourglass hourglass) throws Exception {
        for (int i = 0; i < 60; i++) {
            hourglass.schedule(job("m" + i).build());
        }
        List<Delivery> deliveries = hourglass.reserve(TOPIC, 60, null);
        assertThat(deliveries).hasSize(60);
        // Acks racing on many threads share calls; a stale receipt among them is refused alone, and of two acks of
        // one delivery only one succeeds, whether or not they share a call.
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<String>> outcomes = new java.util.ArrayList<>();
            Delivery twice = deliveries.stream()
                    .filter(d -> !d.id().equals("m7"))
                    .findFirst()
                    .orElseThrow();
            List<Delivery> acked = new java.util.ArrayList<>(deliveries);
            acked.add(twice);
            for (Delivery d : acked) {
                String receipt = d.id().equals("m7") ? d.receipt() + "0" : d.receipt();
                outcomes.add(threads.submit(() -> {
                    try {
                        hourglass.ack(TOPIC, d.id(), receipt);
                        return "OK";
                    } catch (StaleReceiptException e) {
                        return "STALE " + d.id();
                    }
                }));
            }
            List<String> results = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<String> f : outcomes) {
                results.add(f.get());
            }
            assertThat(results)
                    .containsOnlyOnce("STALE m7", "STALE " + twice.id())
                    .filteredOn("OK"::equals)
                    .hasSize(59);
        } finally {
            threads.shutdown();
        }
        assertThat(stateOf(hourglass, "m7")).isEqualTo(JobState.ACTIVE);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 1, 0));
    }

    @Test
    void manySchedulesAtOnceEachGetTheirOwnOutcome(Hourglass hourglass) throws Exception {
        hourglass.schedule(job("keep").delay(Duration.ofHours(1)).build());
        hourglass.schedule(job("reject").delay(Duration.ofHours(1)).build());
        hourglass.schedule(job("replace").delay(Duration.ofHours(1)).build());
        // Sent without waiting, these share calls (ShardBatcher); each must come out as if it had its own.
        List<java.util.concurrent.CompletableFuture<ScheduleResult>> fresh = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Duration delay = i < 100 ? Duration.ZERO : Duration.ofHours(1);
            fresh.add(hourglass.scheduleAsync(job("s" + i).delay(delay).build()));
        }
        var kept =
                hourglass.scheduleAsync(job("keep").onConflict(OnConflict.KEEP).build());
        var rejected = hourglass.scheduleAsync(job("reject").build());
        var replaced = hourglass.scheduleAsync(
                job("replace").onConflict(OnConflict.REPLACE).build());
        var first =
                hourglass.scheduleAsync(job("twice").delay(Duration.ofHours(1)).build());
        var second = hourglass.scheduleAsync(job("twice").build());

        for (int i = 0; i < 200; i++) {
            ScheduleResult r = fresh.get(i).get();
            assertThat(r.id()).isEqualTo("s" + i);
            assertThat(r.outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
            assertThat(r.state()).isEqualTo(i < 100 ? JobState.READY : JobState.SCHEDULED);
        }
        assertThat(kept.get().outcome()).isEqualTo(ScheduleResult.Outcome.KEPT);
        assertThat(kept.get().state()).isEqualTo(JobState.SCHEDULED);
        assertThatThrownBy(rejected::get).hasCauseInstanceOf(JobAlreadyExistsException.class);
        assertThat(replaced.get().outcome()).isEqualTo(ScheduleResult.Outcome.REPLACED);
        assertThat(replaced.get().state()).isEqualTo(JobState.READY);
        assertThat(first.get().outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThatThrownBy(second::get)
                .as("the second of one id in one call meets the first")
                .hasCauseInstanceOf(JobAlreadyExistsException.class);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, inRedisIfFar(103), 101, 0, 0));
    }

    @Test
    void getReportsEveryFieldOfAJob(Hourglass hourglass) {
        Backoff backoff = Backoff.fixed(Duration.ofSeconds(7));
        hourglass.schedule(job("g").delay(Duration.ofHours(1))
                .maxAttempts(3)
                .backoff(backoff)
                .lease(Duration.ofSeconds(12))
                .build());
        JobInfo info = hourglass.get(TOPIC, "g").orElseThrow();
        assertThat(info.id()).isEqualTo("g");
        assertThat(info.topic()).isEqualTo(TOPIC);
        assertThat(info.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(info.dueAt())
                .isBetween(Instant.now().plusSeconds(3590), Instant.now().plusSeconds(3610));
        assertThat(info.attempt()).isZero();
        assertThat(info.maxAttempts()).isEqualTo(3);
        assertThat(info.backoff()).isEqualTo(backoff);
        assertThat(info.lease()).isEqualTo(Duration.ofSeconds(12));
        assertThat(info.payloadAsString()).isEqualTo("payload-g");
        assertThat(info.lastError()).isNull();
        assertThat(info.callbackUrl()).isNull();
        assertThat(hourglass.get(TOPIC, "nope")).isEmpty();
    }

    @Test
    void aGeneratedIdIsReturnedAndFindsTheJob(Hourglass hourglass) {
        ScheduleResult r =
                hourglass.schedule(JobRequest.builder(TOPIC).payload("x").build());
        assertThat(r.id()).isNotBlank();
        assertThat(r.state()).isEqualTo(JobState.READY);
        assertThat(hourglass.get(TOPIC, r.id())).isPresent();
    }

    @Test
    void runAtInThePastIsDueNow(Hourglass hourglass) {
        ScheduleResult r = hourglass.schedule(
                job("past").runAt(Instant.now().minusSeconds(60)).build());
        assertThat(r.state()).isEqualTo(JobState.READY);
        assertThat(reserveOne(hourglass).id()).isEqualTo("past");
    }

    @Test
    void aDueTimeFarAheadKeepsEveryMillisecond(io.hourglass.testkit.HourglassFactory factory) {
        // Scripts write due times as text, twice: in the record and as the score. 15 digits are one more than Lua's own
        // conversion keeps; a score rounded that way would differ from the record, which the invariant check compares.
        Hourglass far = factory.create(b -> b.maxDelay(Duration.ofDays(3_650_000)));
        Instant runAt = Instant.ofEpochMilli(123_456_789_012_345L);
        far.schedule(job("far").runAt(runAt).build());
        assertThat(far.get(TOPIC, "far").orElseThrow().dueAt()).isEqualTo(runAt);
        far.schedule(job("later").runAt(runAt.plusMillis(1)).build());
        assertThat(far.reschedule(TOPIC, "later", runAt.plusMillis(7))
                        .orElseThrow()
                        .dueAt())
                .isEqualTo(runAt.plusMillis(7));
        assertThat(far.stats(TOPIC).scheduled()).isEqualTo(inRedisIfFar(2));
    }

    @Test
    void anExistingIdIsRejectedReplacedOrKeptAsAsked(Hourglass hourglass) {
        hourglass.schedule(job("dup").delay(Duration.ofHours(1)).build());
        assertThatThrownBy(() -> hourglass.schedule(job("dup").payload("other").build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .satisfies(e -> assertThat(
                                ((JobAlreadyExistsException) e).existing().state())
                        .isEqualTo(JobState.SCHEDULED));
        assertThat(hourglass.get(TOPIC, "dup").orElseThrow().payloadAsString()).isEqualTo("payload-dup");

        ScheduleResult kept = hourglass.schedule(
                job("dup").payload("other").onConflict(OnConflict.KEEP).build());
        assertThat(kept.outcome()).isEqualTo(ScheduleResult.Outcome.KEPT);
        assertThat(hourglass.get(TOPIC, "dup").orElseThrow().payloadAsString()).isEqualTo("payload-dup");

        ScheduleResult replaced = hourglass.schedule(
                job("dup").payload("new").onConflict(OnConflict.REPLACE).build());
        assertThat(replaced.outcome()).isEqualTo(ScheduleResult.Outcome.REPLACED);
        assertThat(replaced.state()).isEqualTo(JobState.READY);
        JobInfo info = hourglass.get(TOPIC, "dup").orElseThrow();
        assertThat(info.payloadAsString()).isEqualTo("new");
        assertThat(info.state()).isEqualTo(JobState.READY);
    }

    @Test
    void aJobWithoutAnIdGetsOneOfItsOwnWhateverItsConflictRule(Hourglass hourglass) {
        ScheduleResult plain = hourglass.schedule(JobRequest.builder(TOPIC)
                .payload("a")
                .delay(Duration.ofHours(1))
                .build());
        ScheduleResult kept = hourglass.schedule(JobRequest.builder(TOPIC)
                .payload("b")
                .delay(Duration.ofHours(1))
                .onConflict(OnConflict.KEEP)
                .build());
        ScheduleResult replaced = hourglass.schedule(JobRequest.builder(TOPIC)
                .payload("c")
                .delay(Duration.ofHours(1))
                .onConflict(OnConflict.REPLACE)
                .build());

        for (ScheduleResult r : List.of(plain, kept, replaced)) {
            assertThat(r.outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        }
        assertThat(List.of(plain.id(), kept.id(), replaced.id())).doesNotHaveDuplicates();
        assertThat(hourglass.get(TOPIC, replaced.id()).orElseThrow().payloadAsString())
                .isEqualTo("c");
        assertThat(hourglass.get(TOPIC, plain.id()).orElseThrow().payloadAsString())
                .isEqualTo("a");
    }

    @Test
    void replacingAnActiveJobVoidsTheOldReceipt(Hourglass hourglass) {
        hourglass.schedule(job("r").build());
        Delivery d = reserveOne(hourglass);
        hourglass.schedule(job("r").payload("v2")
                .delay(Duration.ofHours(1))
                .onConflict(OnConflict.REPLACE)
                .build());
        assertThatThrownBy(() -> hourglass.ack(TOPIC, "r", d.receipt())).isInstanceOf(StaleReceiptException.class);
        assertThat(hourglass.get(TOPIC, "r").orElseThrow().attempt()).isZero();
    }

    @Test
    void nackRetriesAfterTheDelayAndKeepsTheError(Hourglass hourglass) {
        hourglass.schedule(job("n").maxAttempts(3).build());
        Delivery first = reserveOne(hourglass);
        JobState state = hourglass.nack(TOPIC, "n", first.receipt(), "boom", Duration.ofMillis(300));
        assertThat(state).isEqualTo(JobState.SCHEDULED);
        JobInfo info = hourglass.get(TOPIC, "n").orElseThrow();
        assertThat(info.lastError()).isEqualTo("boom");
        assertThat(info.attempt()).isEqualTo(1);
        assertThat(hourglass.reserve(TOPIC, 1, null)).as("retry not yet due").isEmpty();

        await().atMost(Duration.ofSeconds(2))
                .until(() -> !hourglass.reserve(TOPIC, 1, null).isEmpty());
        assertThat(hourglass.get(TOPIC, "n").orElseThrow().attempt()).isEqualTo(2);
    }

    @Test
    void theLastFailedAttemptDeadLettersTheJobWithItsError(Hourglass hourglass) {
        hourglass.schedule(job("d").maxAttempts(2).build());
        hourglass.nack(TOPIC, "d", reserveOne(hourglass).receipt(), "first", Duration.ZERO);
        JobState state = hourglass.nack(TOPIC, "d", reserveOne(hourglass).receipt(), "second", Duration.ZERO);
        assertThat(state).isEqualTo(JobState.DEAD);
        assertThat(hourglass.reserve(TOPIC, 1, null)).isEmpty();

        List<JobInfo> dead = hourglass.deadLetters(TOPIC, 0, 10);
        assertThat(dead).extracting(JobInfo::id).containsExactly("d");
        assertThat(dead.get(0).lastError()).isEqualTo("second");
        assertThat(dead.get(0).attempt()).isEqualTo(2);
        assertThat(hourglass.stats(TOPIC).dead()).isEqualTo(1);
    }

    @Test
    void aDeadLetterCanBeRequeuedWithFreshAttemptsOrDeleted(Hourglass hourglass) {
        for (String id : List.of("d1", "d2")) {
            hourglass.schedule(job(id).maxAttempts(1).build());
            Delivery d = reserveOne(hourglass);
            hourglass.nack(TOPIC, d.id(), d.receipt(), "failed", null);
        }
        assertThat(hourglass.deadLetters(TOPIC, 0, 10)).hasSize(2);
        assertThat(hourglass.deadLetters(TOPIC, 1, 10)).hasSize(1);

        assertThat(hourglass.requeueDead(TOPIC, "d1")).isTrue();
        JobInfo requeued = hourglass.get(TOPIC, "d1").orElseThrow();
        assertThat(requeued.state()).isEqualTo(JobState.READY);
        assertThat(requeued.attempt()).isZero();
        assertThatThrownBy(() -> hourglass.requeueDead(TOPIC, "d1"))
                .isInstanceOf(HourglassException.class)
                .hasMessageContaining("not dead");

        assertThat(hourglass.deleteDead(TOPIC, "d2")).isTrue();
        assertThat(hourglass.get(TOPIC, "d2")).isEmpty();
        assertThat(hourglass.deleteDead(TOPIC, "d1"))
                .as("d1 is not dead any more")
                .isFalse();
        assertThat(hourglass.requeueDead(TOPIC, "missing")).isFalse();
        assertThat(reserveOne(hourglass).id()).isEqualTo("d1");
    }

    @Test
    void anExpiredLeaseIsRedeliveredAndItsOldReceiptRefused(Hourglass hourglass) {
        hourglass.schedule(job("lease").build());
        Delivery first = hourglass.reserve(TOPIC, 1, Duration.ofMillis(200)).get(0);
        assertThat(hourglass.reserve(TOPIC, 1, null)).as("leased").isEmpty();

        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !hourglass.reserve(TOPIC, 1, null).isEmpty());
        JobInfo info = hourglass.get(TOPIC, "lease").orElseThrow();
        assertThat(info.attempt()).isEqualTo(2);
        assertThat(info.lastError()).isEqualTo("lease expired on attempt 1");
        assertThatThrownBy(() -> hourglass.ack(TOPIC, "lease", first.receipt()))
                .isInstanceOf(StaleReceiptException.class);
        assertThatThrownBy(() -> hourglass.nack(TOPIC, "lease", first.receipt(), "late", null))
                .isInstanceOf(StaleReceiptException.class);
        assertThatThrownBy(() -> hourglass.extend(TOPIC, "lease", first.receipt(), Duration.ofSeconds(5)))
                .isInstanceOf(StaleReceiptException.class);
        assertThat(hourglass.get(TOPIC, "lease").orElseThrow().state()).isEqualTo(JobState.ACTIVE);
    }

    @Test
    void anExpiredLeaseOnTheLastAttemptDeadLetters(Hourglass hourglass) {
        hourglass.schedule(job("last").maxAttempts(1).build());
        hourglass.reserve(TOPIC, 1, Duration.ofMillis(100));
        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    hourglass.reserve(TOPIC, 1, null);
                    return stateOf(hourglass, "last") == JobState.DEAD;
                });
        assertThat(hourglass.deadLetters(TOPIC, 0, 1).get(0).lastError()).contains("expired");
    }

    @Test
    void extendPushesTheLeaseDeadline(Hourglass hourglass) {
        hourglass.schedule(job("ext").build());
        Delivery d = hourglass.reserve(TOPIC, 1, Duration.ofMillis(300)).get(0);
        Instant until = hourglass.extend(TOPIC, "ext", d.receipt(), Duration.ofSeconds(10));
        assertThat(until).isAfter(d.leaseUntil().plusSeconds(5));
        Pause.millis(500);
        assertThat(hourglass.reserve(TOPIC, 1, null)).as("still leased").isEmpty();
        hourglass.ack(TOPIC, "ext", d.receipt());
    }

    @Test
    void wrongAndForeignReceiptsAreRefusedAndChangeNothing(Hourglass hourglass) {
        hourglass.schedule(job("x").build());
        hourglass.schedule(job("y").build());
        Delivery x = reserveOne(hourglass);
        Delivery y = reserveOne(hourglass);
        assertThatThrownBy(() -> hourglass.ack(TOPIC, x.id(), y.receipt())).isInstanceOf(StaleReceiptException.class);
        assertThatThrownBy(() -> hourglass.ack(TOPIC, x.id(), "999999")).isInstanceOf(StaleReceiptException.class);
        assertThatThrownBy(() -> hourglass.ack(TOPIC, "missing", x.receipt()))
                .isInstanceOf(StaleReceiptException.class);
        assertThatThrownBy(() -> hourglass.ack(TOPIC, x.id(), ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("receipt:");
        assertThat(stateOf(hourglass, x.id())).isEqualTo(JobState.ACTIVE);
        hourglass.ack(TOPIC, x.id(), x.receipt());
        hourglass.ack(TOPIC, y.id(), y.receipt());
        assertThatThrownBy(() -> hourglass.ack(TOPIC, x.id(), x.receipt()))
                .as("twice")
                .isInstanceOf(StaleReceiptException.class);
    }

    @Test
    void cancelRemovesAJobInEveryState(Hourglass hourglass) {
        hourglass.schedule(job("dead").maxAttempts(1).build());
        Delivery dying = reserveOne(hourglass);
        hourglass.nack(TOPIC, "dead", dying.receipt(), "x", null);
        hourglass.schedule(job("active").build());
        Delivery active = reserveOne(hourglass);
        hourglass.schedule(job("ready").build());
        hourglass.schedule(job("scheduled").delay(Duration.ofHours(1)).build());
        assertThat(List.of("dead", "active", "ready", "scheduled"))
                .extracting(id -> stateOf(hourglass, id))
                .containsExactly(JobState.DEAD, JobState.ACTIVE, JobState.READY, JobState.SCHEDULED);

        for (String id : List.of("dead", "active", "ready", "scheduled")) {
            assertThat(hourglass.cancel(TOPIC, id)).as(id).isTrue();
            assertThat(hourglass.get(TOPIC, id)).as(id).isEmpty();
            assertThat(hourglass.cancel(TOPIC, id)).as(id + " twice").isFalse();
        }
        assertThatThrownBy(() -> hourglass.ack(TOPIC, "active", active.receipt()))
                .isInstanceOf(StaleReceiptException.class);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
    }

    @Test
    void rescheduleMovesAJobInEveryStateButDead(Hourglass hourglass) {
        hourglass.schedule(job("s").delay(Duration.ofHours(1)).build());
        ScheduleResult sooner = hourglass.reschedule(TOPIC, "s", Duration.ZERO).orElseThrow();
        assertThat(sooner.state()).isEqualTo(JobState.READY);

        Delivery active = reserveOne(hourglass);
        Instant later = Instant.now().plusSeconds(3600);
        ScheduleResult back = hourglass.reschedule(TOPIC, "s", later).orElseThrow();
        assertThat(back.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(back.dueAt()).isEqualTo(Instant.ofEpochMilli(later.toEpochMilli()));
        JobInfo info = hourglass.get(TOPIC, "s").orElseThrow();
        assertThat(info.attempt())
                .as("taking a job back does not charge an attempt")
                .isZero();
        assertThatThrownBy(() -> hourglass.ack(TOPIC, "s", active.receipt())).isInstanceOf(StaleReceiptException.class);

        hourglass.schedule(job("ready").delay(Duration.ofHours(2)).build());
        hourglass.reschedule(TOPIC, "ready", Duration.ofMillis(200));
        assertThat(stateOf(hourglass, "ready")).isEqualTo(JobState.SCHEDULED);
        await().atMost(Duration.ofSeconds(2))
                .until(() -> !hourglass.reserve(TOPIC, 1, null).isEmpty());

        hourglass.schedule(job("dead").maxAttempts(1).build());
        Delivery d = hourglass.reserve(TOPIC, 1, null).get(0);
        hourglass.nack(TOPIC, d.id(), d.receipt(), "x", null);
        assertThatThrownBy(() -> hourglass.reschedule(TOPIC, "dead", Duration.ZERO))
                .isInstanceOf(HourglassException.class)
                .hasMessageContaining("dead");
        assertThat(hourglass.reschedule(TOPIC, "missing", Duration.ZERO)).isEmpty();
    }

    @Test
    void statsAndTopicsCountEachState(Hourglass hourglass) {
        hourglass.schedule(job("s1").delay(Duration.ofHours(1)).build());
        hourglass.schedule(job("s2").delay(Duration.ofHours(1)).build());
        hourglass.schedule(job("r1").build());
        hourglass.schedule(job("a1").build());
        hourglass.schedule(JobRequest.builder("other").id("o").build());
        List<Delivery> two = hourglass.reserve(TOPIC, 1, null);
        assertThat(two).hasSize(1);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, inRedisIfFar(2), 1, 1, 0));
        assertThat(hourglass.topics()).extracting(TopicStats::topic).containsExactly("orders", "other");
        assertThat(hourglass.topicExists("other")).isTrue();
        assertThat(hourglass.topicExists("never-used")).isFalse();
    }

    @Test
    void longPollingReturnsAsSoonAsAJobComesDue(Hourglass hourglass) throws Exception {
        long start = System.nanoTime();
        var pending = hourglass.reserveAsync(TOPIC, 5, null, Duration.ofSeconds(5));
        ScheduleResult r =
                hourglass.schedule(job("lp").delay(Duration.ofMillis(400)).build());
        List<Delivery> got = pending.get(5, java.util.concurrent.TimeUnit.SECONDS);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(got).extracting(Delivery::id).containsExactly("lp");
        assertThat(Instant.now()).isAfterOrEqualTo(r.dueAt());
        assertThat(tookMs).isBetween(380L, 2000L);
        hourglass.ack(TOPIC, "lp", got.get(0).receipt());
    }

    @Test
    void longPollingEndsEmptyWhenNothingComesDue(Hourglass hourglass) throws Exception {
        long start = System.nanoTime();
        List<Delivery> got = hourglass
                .reserveAsync(TOPIC, 5, null, Duration.ofMillis(300))
                .get(3, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(got).isEmpty();
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(290);
    }

    @Test
    void limitsAreEnforcedBeforeAnythingIsWritten(io.hourglass.testkit.HourglassFactory factory) {
        Hourglass small = factory.create(b -> b.maxPayloadBytes(20).maxDelay(Duration.ofHours(1)));
        assertThatThrownBy(() -> small.schedule(job("big").payload(new byte[21]).build()))
                .hasMessageStartingWith("payload:");
        assertThatThrownBy(() ->
                        small.schedule(job("far").delay(Duration.ofHours(2)).build()))
                .hasMessageStartingWith("delay:");
        assertThatThrownBy(() -> small.schedule(job("far")
                        .runAt(Instant.now().plus(Duration.ofHours(2)))
                        .build()))
                .hasMessageStartingWith("runAt:");
        assertThat(small.topics()).isEmpty();
    }

    @Test
    void topicsAndIdsCannotReachOtherKeysAndPayloadsAreNeverEvaluated(Hourglass hourglass) {
        for (String topic : List.of("a}b", "x:y", "{other}", "t*", "t?", "t[1]", "t\\n", "*")) {
            assertThatThrownBy(() -> JobRequest.builder(topic)).as(topic).hasMessageStartingWith("topic:");
            assertThatThrownBy(() -> hourglass.get(topic, "id")).as(topic).hasMessageStartingWith("topic:");
        }
        for (String id : List.of("a}b", "a b", "a|b", "a\nb", "")) {
            assertThatThrownBy(() -> hourglass.get(TOPIC, id)).as(id).hasMessageStartingWith("id:");
        }
        String lua = "redis.call('FLUSHALL') return 1\n|7|7|\n";
        hourglass.schedule(job("lua").payload(lua).delay(Duration.ofHours(1)).build());
        hourglass.schedule(job("other").delay(Duration.ofHours(1)).build());
        assertThat(hourglass.get(TOPIC, "lua").orElseThrow().payloadAsString()).isEqualTo(lua);
        assertThat(hourglass.get(TOPIC, "other")).as("nothing was evaluated").isPresent();
    }
}
