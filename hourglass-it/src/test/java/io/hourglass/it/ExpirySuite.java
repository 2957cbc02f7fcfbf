package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobEvents;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.OnExpiry;
import io.hourglass.ScheduleResult;
import io.hourglass.WorkerOptions;
import io.hourglass.testkit.HourglassFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Expiry: a job not delivered by its expiry time is never delivered; it goes to the dead letters with the error
 * {@code expired}, or is dropped, and is counted. Run once per shard count by its subclasses; the test kit checks the
 * invariants after each test.
 */
abstract class ExpirySuite {
    static final String TOPIC = "offers";
    static final Duration LEASE = Duration.ofSeconds(30);

    static JobRequest.Builder job(String id) {
        return JobRequest.builder(TOPIC).id(id).payload("payload-" + id).lease(LEASE);
    }

    static JobState stateOf(Hourglass hourglass, String id) {
        return hourglass.get(TOPIC, id).map(JobInfo::state).orElse(null);
    }

    @Test
    void underABacklogNoJobIsDeliveredAfterItsExpiry(HourglassFactory factory) {
        List<String> deadLettered = new CopyOnWriteArrayList<>();
        Hourglass hourglass = factory.create(b -> b.events(new JobEvents() {
            @Override
            public void deadLettered(String topic, String id, String lastError) {
                deadLettered.add(id + " " + lastError);
            }
        }));
        int expiring = 300;
        int lasting = 30;
        // All fall due at once, a backlog that the worker (about 130 jobs a second) needs over 2 s for, while they
        // expire 0.8 s after.
        Instant due = Instant.now().plusMillis(1000);
        Instant expiresAt = due.plusMillis(800);
        // Each claim's time by Redis's clock is its lease deadline less the lease.
        Map<String, Instant> claimedAt = new ConcurrentHashMap<>();
        AtomicInteger deliveries = new AtomicInteger();
        for (int i = 0; i < expiring; i++) {
            hourglass.schedule(job("e" + i).runAt(due).expiresAt(expiresAt).build());
            if (i % 10 == 0) {
                hourglass.schedule(job("l" + i).runAt(due).build());
            }
        }
        hourglass.subscribe(
                TOPIC,
                job -> {
                    deliveries.incrementAndGet();
                    claimedAt.put(job.id(), job.leaseUntil().minus(LEASE));
                    Thread.sleep(30);
                },
                WorkerOptions.builder().concurrency(4).build());

        await().atMost(Duration.ofSeconds(30))
                .until(() -> claimedAt.size() + hourglass.stats(TOPIC).dead() == expiring + lasting);
        await().atMost(Duration.ofSeconds(5)).until(() -> hourglass.stats(TOPIC).active() == 0);

        assertThat(deliveries.get()).as("each job delivered once").isEqualTo(claimedAt.size());
        claimedAt.forEach((id, at) -> {
            if (id.startsWith("e")) {
                assertThat(at).as("claim of %s", id).isBefore(expiresAt);
            }
        });
        assertThat(claimedAt.keySet())
                .as("jobs without an expiry")
                .filteredOn(id -> id.startsWith("l"))
                .hasSize(lasting);
        long dead = hourglass.stats(TOPIC).dead();
        assertThat(dead).as("a backlog this long outlasts the expiry").isPositive();
        assertThat(claimedAt.keySet())
                .as("some were in time")
                .filteredOn(id -> id.startsWith("e"))
                .isNotEmpty();
        List<JobInfo> letters = hourglass.deadLetters(TOPIC, 0, expiring);
        assertThat(letters).hasSize((int) dead).allSatisfy(letter -> {
            assertThat(letter.id()).startsWith("e");
            assertThat(letter.lastError()).isEqualTo("expired");
            assertThat(claimedAt).doesNotContainKey(letter.id());
        });
        assertThat(hourglass.inspector().expired(TOPIC)).isEqualTo(dead);
        assertThat(hourglass.inspector().history(TOPIC).stream()
                        .mapToLong(m -> m.failed())
                        .sum())
                .isEqualTo(dead);
        // This instance's claims found every expired job, so its listener heard of each.
        assertThat(deadLettered).hasSize((int) dead).allMatch(line -> line.endsWith(" expired"));
    }

    @Test
    void aTtlCountsFromTheDueTime(Hourglass hourglass) throws InterruptedException {
        ScheduleResult late = hourglass.schedule(job("later")
                .delay(Duration.ofSeconds(2))
                .ttl(Duration.ofHours(1))
                .build());
        hourglass.schedule(job("soon").ttl(Duration.ofMillis(100)).build());
        Thread.sleep(250);
        assertThat(hourglass.reserve(TOPIC, 10, null))
                .as("'soon' expired before anyone asked")
                .isEmpty();
        assertThat(stateOf(hourglass, "soon")).isEqualTo(JobState.DEAD);
        assertThat(hourglass.get(TOPIC, "soon").orElseThrow().lastError()).isEqualTo("expired");

        await().atMost(Duration.ofSeconds(5)).until(() -> stateOf(hourglass, "later") == JobState.READY);
        List<Delivery> got = hourglass.reserve(TOPIC, 10, null);
        assertThat(got).extracting(Delivery::id).containsExactly("later");
        assertThat(got.get(0).dueAt()).isEqualTo(late.dueAt());
        hourglass.ack(TOPIC, "later", got.get(0).receipt());
        assertThat(hourglass.inspector().expired(TOPIC)).isEqualTo(1);
    }

    @Test
    void aRetryDueAfterTheExpiryIsNeverDelivered(Hourglass hourglass) {
        hourglass.schedule(job("r").expiresAt(Instant.now().plusMillis(1500))
                .maxAttempts(5)
                .build());
        List<Delivery> first = hourglass.reserve(TOPIC, 1, null);
        assertThat(first).hasSize(1);
        assertThat(hourglass.nack(TOPIC, "r", first.get(0).receipt(), "busy", Duration.ofMillis(2000)))
                .isEqualTo(JobState.SCHEDULED);

        await().atMost(Duration.ofSeconds(5)).until(() -> stateOf(hourglass, "r") == JobState.READY);
        assertThat(hourglass.reserve(TOPIC, 10, null)).isEmpty();
        JobInfo dead = hourglass.get(TOPIC, "r").orElseThrow();
        assertThat(dead.state()).isEqualTo(JobState.DEAD);
        assertThat(dead.lastError()).isEqualTo("expired");
        assertThat(dead.attempt()).as("the failed attempt is kept").isEqualTo(1);
    }

    @Test
    void aDroppedJobIsGoneAndItsIdStaysReserved(Hourglass hourglass) throws InterruptedException {
        hourglass.schedule(
                job("d").ttl(Duration.ofMillis(50)).onExpiry(OnExpiry.DROP).build());
        hourglass.schedule(job("kept").delay(Duration.ofMillis(100)).build());
        Thread.sleep(200);
        assertThat(hourglass.reserve(TOPIC, 10, null)).extracting(Delivery::id).containsExactly("kept");
        assertThat(hourglass.get(TOPIC, "d")).isEmpty();
        assertThat(hourglass.stats(TOPIC).dead()).isZero();
        assertThat(hourglass.inspector().expired(TOPIC)).isEqualTo(1);
        assertThatThrownBy(() -> hourglass.schedule(job("d").build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .satisfies(e -> assertThat(
                                ((JobAlreadyExistsException) e).existing().ended())
                        .isEqualTo(ScheduleResult.Ended.DEAD));
    }

    @Test
    void withHistoryOnEachExpiredJobAppendsOneExpiredEvent(HourglassFactory factory) throws InterruptedException {
        Hourglass hourglass = factory.create(b -> b.historyEvents(1000, 0));
        hourglass.schedule(job("dead").ttl(Duration.ofMillis(20)).maxAttempts(3).build());
        hourglass.schedule(job("dropped")
                .ttl(Duration.ofMillis(20))
                .onExpiry(OnExpiry.DROP)
                .build());
        hourglass.schedule(job("live").build());
        Thread.sleep(60);
        assertThat(hourglass.reserve(TOPIC, 10, null)).extracting(Delivery::id).containsExactly("live");
        assertThat(hourglass.reserve(TOPIC, 10, null)).isEmpty();

        List<Map<String, String>> events = TopicKeys.events(getClass(), factory, TOPIC);
        assertThat(events).extracting(e -> e.get("id")).containsExactlyInAnyOrder("dead", "dropped");
        assertThat(events).allSatisfy(e -> {
            assertThat(e).containsEntry("outcome", "EXPIRED").containsEntry("error", "expired");
            assertThat(e).containsEntry("attempts", "0");
        });
    }

    @Test
    void aRescheduleKeepsTheExpiryTheJobWasScheduledWith(Hourglass hourglass) {
        hourglass.schedule(job("m").delay(Duration.ofMillis(100))
                .ttl(Duration.ofMillis(200))
                .build());
        hourglass.reschedule(TOPIC, "m", Duration.ofMillis(500));
        await().atMost(Duration.ofSeconds(3)).until(() -> stateOf(hourglass, "m") == JobState.READY);
        assertThat(hourglass.reserve(TOPIC, 10, null)).isEmpty();
        assertThat(hourglass.get(TOPIC, "m").orElseThrow().lastError()).isEqualTo("expired");
    }

    @Test
    void anExpiryNotAfterTheDueTimeIsRefusedAndNothingIsScheduled(Hourglass hourglass) {
        Instant at = Instant.now().plusSeconds(60);
        assertThatThrownBy(() ->
                        hourglass.schedule(job("x").runAt(at).expiresAt(at).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("expiresAt: must be after the job's due time");
        assertThatThrownBy(() -> hourglass.schedule(job("x").delay(Duration.ofMinutes(5))
                        .expiresAt(Instant.now().plusSeconds(60))
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("expiresAt:");
        assertThatThrownBy(() -> job("x").ttl(Duration.ZERO)).hasMessageStartingWith("ttl:");
        assertThat(hourglass.get(TOPIC, "x")).isEmpty();
    }
}
