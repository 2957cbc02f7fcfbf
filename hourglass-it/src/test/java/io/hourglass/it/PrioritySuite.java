package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.Inspector;
import io.hourglass.JobInfo;
import io.hourglass.JobPage;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.RunNowOutcome;
import io.hourglass.TopicOverview;
import io.hourglass.TopicStats;
import io.hourglass.testkit.HourglassFactory;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Priorities within a topic: among a shard's due jobs a higher priority is claimed first, and the due time orders the
 * jobs of one priority; a job not yet due waits whatever its priority; every operation that finds or moves a waiting
 * job keeps its priority. The order holds per shard, so the ids of an ordering test share one shard. Run once per shard
 * count by its subclasses; the test kit checks the invariants (each waiting job in the set and at the score its
 * priority asks for) after each test.
 */
abstract class PrioritySuite {
    static final String TOPIC = "emails";

    List<String> idsOnOneShard(String prefix, int n) {
        return OneShardIds.of(this, prefix, n);
    }

    static JobRequest.Builder job(String id, int priority) {
        return JobRequest.builder(TOPIC).id(id).payload("p-" + id).priority(priority);
    }

    static List<String> ids(List<Delivery> deliveries) {
        return deliveries.stream().map(Delivery::id).toList();
    }

    @Test
    void aHigherPriorityIsClaimedFirstAndTheDueTimeOrdersOnePriority(Hourglass hourglass) {
        List<String> id = idsOnOneShard("j", 9);
        Instant now = Instant.now();
        // Scheduled in an order that is neither the due order nor the priority order.
        int[] priorities = {0, -5, 5, 2, 0, 2, -1, 5, 0};
        int[] secondsAgo = {3, 9, 1, 2, 8, 7, 6, 5, 4};
        for (int i = 0; i < id.size(); i++) {
            hourglass.schedule(job(id.get(i), priorities[i])
                    .runAt(now.minusSeconds(secondsAgo[i]))
                    .build());
        }
        String notYetDue = idsOnOneShard("later", 1).get(0);
        hourglass.schedule(job(notYetDue, 5).delay(Duration.ofHours(1)).build());

        List<String> claimed = new ArrayList<>(ids(hourglass.reserve(TOPIC, 4, null)));
        claimed.addAll(ids(hourglass.reserve(TOPIC, 100, null)));

        // 5: j7 (5 s ago), j2 (1 s); 2: j5 (7 s), j3 (2 s); 0: j4 (8 s), j8 (4 s), j0 (3 s); -1: j6; -5: j1.
        assertThat(claimed)
                .containsExactly(
                        id.get(7), id.get(2), id.get(5), id.get(3), id.get(4), id.get(8), id.get(0), id.get(6),
                        id.get(1));
        assertThat(hourglass.get(TOPIC, notYetDue).orElseThrow().state()).isEqualTo(JobState.SCHEDULED);
    }

    @Test
    void aHighPriorityJobNotYetDueIsNotDeliveredEarlyAndAWorkerWakesForIt(Hourglass hourglass)
            throws InterruptedException {
        List<String> id = idsOnOneShard("k", 2);
        Instant due = hourglass
                .schedule(job(id.get(0), 5).delay(Duration.ofMillis(1200)).build())
                .dueAt();
        hourglass.schedule(job(id.get(1), -5).build());
        assertThat(ids(hourglass.reserve(TOPIC, 10, null))).containsExactly(id.get(1));
        assertThat(hourglass.reserve(TOPIC, 10, null)).isEmpty();

        // A worker started now claims nothing, then wakes at the prioritised job's due time, not at its sweep.
        BlockingQueue<Instant> delivered = new LinkedBlockingQueue<>();
        Duration lease = hourglass.settings().defaultLease();
        hourglass.subscribe(TOPIC, job -> delivered.add(job.leaseUntil().minus(lease)));
        Instant claimedAt = delivered.poll(10, TimeUnit.SECONDS);
        assertThat(claimedAt).as("claimed").isNotNull();
        assertThat(claimedAt).isAfterOrEqualTo(due).isBefore(due.plusMillis(900));
    }

    @Test
    void getCancelRescheduleRunNowListingsAndCountsSeePrioritisedJobs(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        Instant now = Instant.now();
        hourglass.schedule(job("high-later", 4).delay(Duration.ofHours(1)).build());
        hourglass.schedule(job("low-later", -3).delay(Duration.ofHours(2)).build());
        hourglass.schedule(job("plain-later", 0).delay(Duration.ofMinutes(30)).build());
        hourglass.schedule(job("high-ready", 4).runAt(now.minusSeconds(2)).build());
        hourglass.schedule(job("low-ready", -3).runAt(now.minusSeconds(20)).build());
        hourglass.schedule(job("plain-ready", 0).runAt(now.minusSeconds(10)).build());

        JobInfo high = hourglass.get(TOPIC, "high-later").orElseThrow();
        assertThat(high.priority()).isEqualTo(4);
        assertThat(high.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(hourglass.get(TOPIC, "low-ready").orElseThrow().state()).isEqualTo(JobState.READY);
        assertThat(hourglass.get(TOPIC, "plain-ready").orElseThrow().priority()).isZero();

        TopicStats stats = hourglass.stats(TOPIC);
        assertThat(List.of(stats.scheduled(), stats.ready())).containsExactly(3L, 3L);
        TopicOverview overview = inspector.topic(TOPIC);
        assertThat(List.of(overview.scheduled(), overview.ready())).containsExactly(3L, 3L);
        assertThat(overview.latency()).as("the oldest ready job is the low one").isGreaterThan(Duration.ofSeconds(15));
        assertThat(overview.nextDueAt())
                .isEqualTo(hourglass.get(TOPIC, "plain-later").orElseThrow().dueAt());

        // Listings order by due time across priorities, one job a page to walk the cursor through the bands.
        assertThat(walk(inspector, JobState.SCHEDULED))
                .extracting(JobSummary::id)
                .containsExactly("plain-later", "high-later", "low-later");
        assertThat(walk(inspector, JobState.READY))
                .extracting(JobSummary::id)
                .containsExactly("low-ready", "plain-ready", "high-ready");
        assertThat(walk(inspector, JobState.READY))
                .extracting(JobSummary::priority)
                .containsExactly(-3, 0, 4);

        assertThat(hourglass
                        .reschedule(TOPIC, "low-later", Duration.ZERO)
                        .orElseThrow()
                        .state())
                .isEqualTo(JobState.READY);
        assertThat(hourglass.get(TOPIC, "low-later").orElseThrow().priority()).isEqualTo(-3);
        assertThat(inspector.runNow(TOPIC, "high-later")).isEqualTo(RunNowOutcome.MADE_READY);
        assertThat(hourglass.cancel(TOPIC, "high-ready")).isTrue();
        assertThat(hourglass.get(TOPIC, "high-ready")).isEmpty();
        assertThat(hourglass.stats(TOPIC).ready()).isEqualTo(4);

        assertThat(inspector.purge(TOPIC, JobState.READY)).isEqualTo(4);
        assertThat(hourglass.stats(TOPIC).scheduled()).isEqualTo(1);
        assertThat(inspector.purge(TOPIC, JobState.SCHEDULED)).isEqualTo(1);
    }

    @Test
    void aCallbackJobWaitsByItsPriorityInTheCallbackLane(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(List.of("203.0.113.7")));
        hourglass.schedule(job("hook", 2)
                .callbackUrl(URI.create("https://203.0.113.7/hook"))
                .delay(Duration.ofHours(1))
                .build());
        assertThat(hourglass.get(TOPIC, "hook").orElseThrow())
                .extracting(JobInfo::state, JobInfo::priority)
                .containsExactly(JobState.SCHEDULED, 2);
        assertThat(hourglass.stats(TOPIC).scheduled()).isEqualTo(1);
        assertThat(hourglass
                        .reschedule(TOPIC, "hook", Duration.ZERO)
                        .orElseThrow()
                        .state())
                .isEqualTo(JobState.READY);
        assertThat(hourglass.reserve(TOPIC, 10, null))
                .as("pull workers take the worker lane only")
                .isEmpty();
        assertThat(hourglass.stats(TOPIC).ready()).isEqualTo(1);
    }

    static List<JobSummary> walk(Inspector inspector, JobState state) {
        List<JobSummary> all = new ArrayList<>();
        String cursor = null;
        do {
            JobPage page = inspector.jobs(TOPIC, state, cursor, 1);
            all.addAll(page.jobs());
            cursor = page.nextCursor();
        } while (cursor != null);
        return all;
    }

    @Test
    void nackAndLeaseExpiryRetriesKeepThePriority(Hourglass hourglass) {
        List<String> id = idsOnOneShard("r", 3);
        String nacked = id.get(0);
        String expiring = id.get(1);
        String plain = id.get(2);
        hourglass.schedule(job(nacked, 3).maxAttempts(3).build());
        hourglass.schedule(job(expiring, 1).maxAttempts(3).build());
        List<Delivery> first = hourglass.reserve(TOPIC, 2, Duration.ofMillis(300));
        assertThat(ids(first)).containsExactly(nacked, expiring);
        // A plain job due before both retries: their priorities still put them first.
        hourglass.schedule(job(plain, 0).runAt(Instant.now().minusSeconds(60)).build());
        assertThat(hourglass.nack(TOPIC, nacked, first.get(0).receipt(), "busy", Duration.ZERO))
                .isEqualTo(JobState.READY);
        assertThat(hourglass.get(TOPIC, nacked).orElseThrow().priority()).isEqualTo(3);

        await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ofMillis(400)).until(() -> true);
        List<Delivery> again = hourglass.reserve(TOPIC, 3, null);
        assertThat(ids(again)).as("the expired lease is reaped by this claim").containsExactly(nacked, expiring, plain);
        assertThat(again.get(1).attempt()).isEqualTo(2);
        assertThat(hourglass.get(TOPIC, expiring).orElseThrow().priority()).isEqualTo(1);
        for (Delivery d : again) {
            hourglass.ack(TOPIC, d.id(), d.receipt());
        }
    }
}
