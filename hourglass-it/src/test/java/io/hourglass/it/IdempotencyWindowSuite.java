package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.StorageFormat;
import io.hourglass.TopicStats;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The idempotency window: an id stays reserved for a while after its job is acked, cancelled or its dead letter
 * deleted, so a late or retried schedule does not run the job again. Run once per shard count by its subclasses; the
 * test kit checks the invariants (a reservation is not a job) after each test.
 */
abstract class IdempotencyWindowSuite {
    static final String TOPIC = "payments";

    static JobRequest.Builder job(String id) {
        return JobRequest.builder(TOPIC).id(id).payload("payload-" + id);
    }

    static void runAndAck(Hourglass hourglass, String id) {
        List<Delivery> got = hourglass.reserve(TOPIC, 1, null);
        assertThat(got).extracting(Delivery::id).containsExactly(id);
        hourglass.ack(TOPIC, id, got.get(0).receipt());
    }

    static void assertReserved(Hourglass hourglass, String id, ScheduleResult.Ended how, Instant from, Instant to) {
        assertThatThrownBy(() -> hourglass.schedule(job(id).build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .hasMessageContaining(how.name())
                .satisfies(e -> {
                    ScheduleResult existing = ((JobAlreadyExistsException) e).existing();
                    assertThat(existing.ended()).isEqualTo(how);
                    assertThat(existing.endedAt()).isBetween(from.minusMillis(50), to.plusMillis(50));
                    assertThat(existing.state()).isNull();
                });
        ScheduleResult kept =
                hourglass.schedule(job(id).onConflict(OnConflict.KEEP).build());
        assertThat(kept.outcome()).isEqualTo(ScheduleResult.Outcome.KEPT);
        assertThat(kept.ended()).isEqualTo(how);
        assertThat(kept.endedAt()).isBetween(from.minusMillis(50), to.plusMillis(50));
        assertReservedFarAhead(hourglass, id, how);
        assertThat(hourglass.get(TOPIC, id)).as("no job was created").isEmpty();
        assertThat(hourglass.reserve(TOPIC, 10, null))
                .as("nothing to deliver again")
                .isEmpty();
    }

    /** A schedule of the id due far ahead (into the cold tier, where there is one) meets the reservation too. */
    static void assertReservedFarAhead(Hourglass hourglass, String id, ScheduleResult.Ended how) {
        assertThatThrownBy(() ->
                        hourglass.schedule(job(id).delay(Duration.ofHours(2)).build()))
                .isInstanceOfSatisfying(
                        JobAlreadyExistsException.class,
                        e -> assertThat(e.existing().ended()).isEqualTo(how));
        ScheduleResult kept = hourglass.schedule(
                job(id).delay(Duration.ofHours(2)).onConflict(OnConflict.KEEP).build());
        assertThat(kept.outcome()).isEqualTo(ScheduleResult.Outcome.KEPT);
        assertThat(kept.ended()).isEqualTo(how);
    }

    @Test
    void anAckedIdIsRefusedOrKeptWithItsOutcomeAndIsNotAJob(Hourglass hourglass) {
        hourglass.schedule(job("a").build());
        Instant before = Instant.now();
        runAndAck(hourglass, "a");
        Instant after = Instant.now();

        assertReserved(hourglass, "a", ScheduleResult.Ended.ACKED, before, after);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
    }

    @Test
    void aCancelledIdIsRefusedOrKeptWithItsOutcome(Hourglass hourglass) {
        hourglass.schedule(job("c").delay(Duration.ofHours(1)).build());
        Instant before = Instant.now();
        assertThat(hourglass.cancel(TOPIC, "c")).isTrue();
        Instant after = Instant.now();

        assertReserved(hourglass, "c", ScheduleResult.Ended.CANCELLED, before, after);
        assertThat(hourglass.cancel(TOPIC, "c"))
                .as("a reservation is not a job to cancel")
                .isFalse();
    }

    @Test
    void aDeletedDeadLetterReservesItsIdFromItsTimeOfDeath(Hourglass hourglass) {
        for (String id : List.of("d1", "d2", "d3")) {
            hourglass.schedule(job(id).maxAttempts(1).build());
        }
        Instant before = Instant.now();
        for (Delivery d : hourglass.reserve(TOPIC, 3, null)) {
            hourglass.nack(TOPIC, d.id(), d.receipt(), "failed", null);
        }
        Instant died = Instant.now();
        // While it is a dead letter, the job itself answers.
        assertThatThrownBy(() -> hourglass.schedule(job("d1").build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .satisfies(e -> assertThat(
                                ((JobAlreadyExistsException) e).existing().state())
                        .isEqualTo(JobState.DEAD));

        assertThat(hourglass.deleteDead(TOPIC, "d1")).isTrue();
        assertThat(hourglass.inspector().deleteDead(TOPIC, List.of("d2"))).isEqualTo(1);
        assertReserved(hourglass, "d1", ScheduleResult.Ended.DEAD, before, died);
        assertReserved(hourglass, "d2", ScheduleResult.Ended.DEAD, before, died);

        // A requeue brings the dead letter back as the same job: no reservation is involved.
        assertThat(hourglass.requeueDead(TOPIC, "d3")).isTrue();
        runAndAck(hourglass, "d3");
        assertThatThrownBy(() -> hourglass.schedule(job("d3").build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .satisfies(e -> assertThat(
                                ((JobAlreadyExistsException) e).existing().ended())
                        .isEqualTo(ScheduleResult.Ended.ACKED));
    }

    @Test
    void replaceCreatesTheJobAgainAndItsEndReservesTheIdAgain(Hourglass hourglass) {
        hourglass.schedule(job("r").build());
        runAndAck(hourglass, "r");

        ScheduleResult again = hourglass.schedule(
                job("r").payload("again").onConflict(OnConflict.REPLACE).build());
        assertThat(again.outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThat(again.state()).isEqualTo(JobState.READY);
        assertThat(again.ended()).isNull();
        List<Delivery> got = hourglass.reserve(TOPIC, 1, null);
        assertThat(got).extracting(Delivery::payloadAsString).containsExactly("again");
        Instant before = Instant.now();
        hourglass.ack(TOPIC, "r", got.get(0).receipt());
        assertReserved(hourglass, "r", ScheduleResult.Ended.ACKED, before, Instant.now());
    }

    @Test
    void afterTheWindowTheIdIsFreeAgain(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.idempotencyWindow(Duration.ofMillis(400)));
        hourglass.schedule(job("w").build());
        runAndAck(hourglass, "w");
        assertThatThrownBy(() -> hourglass.schedule(job("w").build())).isInstanceOf(JobAlreadyExistsException.class);

        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(50))
                .ignoreException(JobAlreadyExistsException.class)
                .until(() -> hourglass.schedule(job("w").build()).outcome() == ScheduleResult.Outcome.CREATED);
        assertThat(hourglass.get(TOPIC, "w").orElseThrow().state()).isEqualTo(JobState.READY);
    }

    @Test
    void expiredReservationsAreRemovedByLaterCalls(HourglassFactory factory) throws InterruptedException {
        Hourglass hourglass = factory.create(b -> b.idempotencyWindow(Duration.ofMillis(200)));
        for (int i = 0; i < 100; i++) {
            hourglass.schedule(job("e" + i).build());
        }
        int acked = 0;
        while (acked < 100) {
            for (Delivery d : hourglass.reserve(TOPIC, 50, null)) {
                hourglass.ack(TOPIC, d.id(), d.receipt());
                acked++;
            }
        }
        assertThat(reservations(factory)).isEqualTo(100);
        Thread.sleep(300);
        // Later calls remove a few expired entries each; with no window on these jobs they add none.
        for (int i = 0; i < 200 && reservations(factory) > 0; i++) {
            hourglass.schedule(job("n" + i).idempotencyWindow(Duration.ZERO).build());
        }
        assertThat(reservations(factory)).isZero();
        assertThat(sum(factory, (redis, prefix) -> redis.hlen(prefix + "ended")))
                .isZero();
    }

    @Test
    void aWindowOfZeroKeepsIdsFreeAsBefore(HourglassFactory factory) {
        Hourglass off = factory.create(b -> b.idempotencyWindow(Duration.ZERO));
        off.schedule(job("z").build());
        runAndAck(off, "z");
        assertThat(off.schedule(job("z").build()).outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThat(off.cancel(TOPIC, "z")).isTrue();
        assertThat(off.schedule(job("z").build()).outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThat(reservations(factory)).isZero();
    }

    @Test
    void theWindowIsSetPerTopicAndPerJob(HourglassFactory factory) {
        Hourglass hourglass =
                factory.create(b -> b.idempotencyWindow(Duration.ZERO).idempotencyWindow(TOPIC, Duration.ofHours(2)));
        hourglass.schedule(job("topic-default").build());
        runAndAck(hourglass, "topic-default");
        assertThatThrownBy(() -> hourglass.schedule(job("topic-default").build()))
                .isInstanceOf(JobAlreadyExistsException.class);
        assertReservedFarAhead(hourglass, "topic-default", ScheduleResult.Ended.ACKED);

        hourglass.schedule(job("job-off").idempotencyWindow(Duration.ZERO).build());
        runAndAck(hourglass, "job-off");
        assertThat(hourglass.schedule(job("job-off").build()).outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);

        assertThatThrownBy(() -> job("x").idempotencyWindow(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("idempotencyWindow");
    }

    @Test
    void anExpiredEntryQueuedBehindALongerOneIsFreeBeforeItsTurn(HourglassFactory factory) throws InterruptedException {
        Hourglass hourglass = factory.create();
        // Two ids of one shard, whose dead letters one call deletes: the longer window first in the order.
        String longer = "q-long";
        String shorter = sameShardAs(longer, "q-short-");
        hourglass.schedule(job(longer).maxAttempts(1).build());
        hourglass.schedule(job(shorter)
                .maxAttempts(1)
                .idempotencyWindow(Duration.ofSeconds(1))
                .build());
        for (Delivery d : hourglass.reserve(TOPIC, 2, null)) {
            hourglass.nack(TOPIC, d.id(), d.receipt(), "failed", null);
        }
        Instant died = Instant.now();
        assertThat(hourglass.inspector().deleteDead(TOPIC, List.of(longer, shorter)))
                .isEqualTo(2);
        assertThat(this.<List<String>>onShardOf(
                        factory, longer, (redis, prefix) -> redis.lrange(prefix + "ended:order", 0, -1)))
                .containsExactly(longer, shorter);

        Thread.sleep(Math.max(
                0, Duration.between(Instant.now(), died.plusMillis(1100)).toMillis()));
        assertThat(this.<Boolean>onShardOf(
                        factory, shorter, (redis, prefix) -> redis.hexists(prefix + "ended", shorter)))
                .as("not trimmed: the running entry at the head holds it back")
                .isTrue();
        assertThat(hourglass.schedule(job(shorter).build()).outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThatThrownBy(() -> hourglass.schedule(job(longer).build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .hasMessageContaining("DEAD");
    }

    @Test
    void aLongerEntryMovesBehindAShorterOneAddedAfterItSoThatOneIsTrimmedInTime(HourglassFactory factory)
            throws InterruptedException {
        Hourglass hourglass = factory.create();
        String longer = "t-long";
        String shorter = sameShardAs(longer, "t-short-");
        hourglass.schedule(job(longer).build());
        runAndAck(hourglass, longer);
        hourglass.schedule(
                job(shorter).idempotencyWindow(Duration.ofMillis(300)).build());
        runAndAck(hourglass, shorter);
        assertThat(this.<List<String>>onShardOf(
                        factory, longer, (redis, prefix) -> redis.lrange(prefix + "ended:order", 0, -1)))
                .containsExactly(shorter, longer);

        Thread.sleep(400);
        // A schedule on the shard trims: the expired entry is at the head now, not held back by the hour-long one.
        hourglass.schedule(job(sameShardAs(longer, "t-other-")).build());
        assertThat(this.<Boolean>onShardOf(
                        factory, shorter, (redis, prefix) -> redis.hexists(prefix + "ended", shorter)))
                .isFalse();
        assertThat(this.<List<String>>onShardOf(
                        factory, longer, (redis, prefix) -> redis.lrange(prefix + "ended:order", 0, -1)))
                .containsExactly(longer);
    }

    @Test
    void entriesOfTheEarlierSortedSetKeepTheirEndsAndAreDrained(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        long now = System.currentTimeMillis();
        // As a version before ended:order left them: the outcome and its time in ended, the end in ended:expiry.
        legacy(factory, "old-long", "A" + (now - 5_400_000), now + 1_800_000);
        legacy(factory, "old-over", "C" + (now - 700_000), now - 100_000);
        legacy(factory, "old-expired", "A" + (now - 200_000), now - 1);

        // A 2 h window acked 90 min ago: its own end, not the default hour's, decides.
        assertThatThrownBy(() -> hourglass.schedule(job("old-long").build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .satisfies(e -> assertThat(
                                ((JobAlreadyExistsException) e).existing().endedAt())
                        .isEqualTo(Instant.ofEpochMilli(now - 5_400_000)));
        assertReservedFarAhead(hourglass, "old-long", ScheduleResult.Ended.ACKED);
        assertThat(hourglass
                        .schedule(job("old-over").delay(Duration.ofHours(1)).build())
                        .outcome())
                .isEqualTo(ScheduleResult.Outcome.CREATED);
        // Beside the sorted set, the new structure works: no WRONGTYPE.
        hourglass.schedule(job("new").build());
        runAndAck(hourglass, "new");
        assertThatThrownBy(() -> hourglass.schedule(job("new").build())).isInstanceOf(JobAlreadyExistsException.class);
        // A delivery claimed by that version has a receipt without the window: the ack reads the record's.
        hourglass.schedule(job("pre").idempotencyWindow(Duration.ofHours(2)).build());
        List<Delivery> got = hourglass.reserve(TOPIC, 1, null);
        assertThat(got).extracting(Delivery::id).containsExactly("pre");
        String receipt = got.get(0).receipt();
        assertThat(receipt).endsWith("~7200000");
        String earlier = receipt.substring(0, receipt.indexOf('~'));
        onShardOf(factory, "pre", (redis, prefix) -> redis.hset(prefix + "leases", "pre", earlier));
        hourglass.ack(TOPIC, "pre", earlier);
        assertThat(this.<String>onShardOf(factory, "pre", (redis, prefix) -> redis.hget(prefix + "ended", "pre")))
                .matches("A[0-9]+\\+7200000");

        // Idle claims drain the expired entries of the sorted set, entry and all.
        assertThat(hourglass.reserve(TOPIC, 10, null)).isEmpty();
        assertThat(this.<Boolean>onShardOf(
                        factory, "old-expired", (redis, prefix) -> redis.hexists(prefix + "ended", "old-expired")))
                .isFalse();
        assertThat(sum(factory, (redis, prefix) -> redis.zcard(prefix + "ended:expiry")))
                .as("only old-long is left")
                .isEqualTo(1);
    }

    void legacy(HourglassFactory factory, String id, String value, long endMs) {
        onShardOf(factory, id, (redis, prefix) -> {
            redis.hset(prefix + "ended", id, value);
            return redis.zadd(prefix + "ended:expiry", endMs, id);
        });
    }

    /** The first id starting with {@code prefix} that lives in the shard of {@code id}. */
    String sameShardAs(String id, String prefix) {
        return IntStream.range(0, 1000)
                .mapToObj(i -> prefix + i)
                .filter(other -> shard(other) == shard(id))
                .findFirst()
                .orElseThrow();
    }

    int shard(String id) {
        return StorageFormat.shardOf(
                id, getClass().getAnnotation(RedisTest.class).shards());
    }

    <T> T onShardOf(HourglassFactory factory, String id, TopicKeys.ShardCall<T> call) {
        return TopicKeys.onShardOf(getClass(), factory, TOPIC, id, call);
    }

    long reservations(HourglassFactory factory) {
        return sum(factory, (redis, prefix) -> redis.llen(prefix + "ended:order"));
    }

    /** Sums {@code read} over every shard of the topic. */
    long sum(HourglassFactory factory, TopicKeys.ShardRead read) {
        return TopicKeys.sum(getClass(), factory, TOPIC, read);
    }
}
