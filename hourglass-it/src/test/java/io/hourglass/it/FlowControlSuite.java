package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.StorageFormat;
import io.hourglass.TopicConfig;
import io.hourglass.WorkerOptions;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A topic's flow control, stored in Redis and enforced inside the claim: the rate limit and the concurrency cap hold
 * across two {@link Hourglass} instances (two clients of Redis, as two processes would be), for in-process workers and
 * pull reservations alike. Run once per shard count by its subclasses.
 */
abstract class FlowControlSuite {
    static final String TOPIC = "limited";

    int shards() {
        return getClass().getAnnotation(RedisTest.class).shards();
    }

    /** {@code perShard} job ids for each shard, so that every shard's share has work. */
    List<String> idsOnEveryShard(int perShard) {
        List<String> ids = new ArrayList<>();
        int[] counts = new int[shards()];
        for (int i = 0; ids.size() < perShard * shards(); i++) {
            String id = "j" + i;
            int shard = StorageFormat.shardOf(id, shards());
            if (counts[shard] < perShard) {
                counts[shard]++;
                ids.add(id);
            }
        }
        return ids;
    }

    static void scheduleNow(Hourglass hourglass, List<String> ids) {
        for (String id : ids) {
            hourglass.schedule(JobRequest.builder(TOPIC).id(id).payload(id).build());
        }
    }

    @Test
    void theConfigIsStoredReadBackAndABadOneChangesNothing(Hourglass hourglass) {
        assertThat(hourglass.inspector().topicConfig(TOPIC)).isEqualTo(TopicConfig.UNLIMITED);

        hourglass.inspector().configureTopic(TOPIC, new TopicConfig(50, 0, 2 * shards()));
        TopicConfig stored = new TopicConfig(50, Math.max(50, shards()), 2 * shards());
        assertThat(hourglass.inspector().topicConfig(TOPIC))
                .as("the default burst is stored")
                .isEqualTo(stored);

        if (shards() > 1) {
            assertThatThrownBy(() -> hourglass.inspector().configureTopic(TOPIC, new TopicConfig(0, 0, shards() - 1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("maxConcurrency:");
            assertThatThrownBy(() -> hourglass.inspector().configureTopic(TOPIC, new TopicConfig(5, shards() - 1, 0)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("burst:");
        }
        assertThatThrownBy(() -> hourglass.inspector().configureTopic("bad topic", stored))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(hourglass.inspector().topicConfig(TOPIC)).isEqualTo(stored);

        hourglass.inspector().configureTopic(TOPIC, TopicConfig.UNLIMITED);
        assertThat(hourglass.inspector().topicConfig(TOPIC)).isEqualTo(TopicConfig.UNLIMITED);
        scheduleNow(hourglass, idsOnEveryShard(3));
        assertThat(hourglass.reserve(TOPIC, 100, null)).as("no limit left").hasSize(3 * shards());
    }

    @Test
    void theRateLimitHoldsAcrossTwoInstancesAndTheirTimersFireForTheNextToken(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        double rate = 20;
        int burst = Math.max(8, shards());
        hourglass.inspector().configureTopic(TOPIC, new TopicConfig(rate, burst, 0));
        List<String> ids = idsOnEveryShard(Math.max(2, 64 / shards()));
        scheduleNow(hourglass, ids);
        // When each job was leased, by Redis's clock: its lease deadline less the lease, the same for every job.
        List<Long> leasedAt = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 2; i++) {
            // A sweep of an hour: every claim after the first comes from the timer armed for the next token.
            Hourglass worker = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
            worker.subscribe(
                    TOPIC,
                    job -> leasedAt.add(job.leaseUntil().toEpochMilli()),
                    WorkerOptions.builder().concurrency(8).build());
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> leasedAt.size() >= ids.size());

        List<Long> sorted = new ArrayList<>(leasedAt);
        sorted.sort(null);
        assertThat(sorted).hasSize(ids.size());
        assertWithinTheRateLimit(sorted, rate, burst);
        double took = (sorted.get(sorted.size() - 1) - sorted.get(0)) / 1e3;
        System.out.printf(
                "%d jobs at %.0f/s (burst %d) on %d shards: %.2f s, %.1f/s after the burst%n",
                ids.size(), rate, burst, shards(), took, (ids.size() - burst) / took);
    }

    /**
     * Asserts that no window of the leases holds more than {@code burst + rate * its length} of them, and that the
     * limit slowed them down: the last came no sooner than the bucket allows.
     *
     * @param leasedAt when each job was leased, ms by Redis's clock (or a constant later), in any order
     */
    static void assertWithinTheRateLimit(List<Long> leasedAt, double rate, int burst) {
        List<Long> sorted = new ArrayList<>(leasedAt);
        sorted.sort(null);
        for (int i = 0; i < sorted.size(); i++) {
            for (int j = i; j < sorted.size(); j++) {
                double seconds = (sorted.get(j) - sorted.get(i)) / 1e3;
                // One lease of slack for the clock's whole milliseconds.
                assertThat(j - i + 1)
                        .as("leases within %.3f s", seconds)
                        .isLessThanOrEqualTo((int) (burst + rate * seconds) + 1);
            }
        }
        double took = (sorted.get(sorted.size() - 1) - sorted.get(0)) / 1e3;
        assertThat(took).as("the limit slowed the drain").isGreaterThan((sorted.size() - burst) / rate - 0.05);
    }

    @Test
    void theConcurrencyCapHoldsAcrossTwoInstances(HourglassFactory factory) {
        // One factory for all three instances: each injected factory or instance gets a namespace of its own.
        Hourglass hourglass = factory.create();
        int cap = Math.max(4, shards());
        hourglass.inspector().configureTopic(TOPIC, new TopicConfig(0, 0, cap));
        List<String> ids = idsOnEveryShard(Math.max(3, 24 / shards()));
        scheduleNow(hourglass, ids);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < 2; i++) {
            factory.create()
                    .subscribe(
                            TOPIC,
                            job -> {
                                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                                Thread.sleep(100);
                                running.decrementAndGet();
                                done.incrementAndGet();
                            },
                            WorkerOptions.builder().concurrency(10).build());
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> done.get() >= ids.size());
        assertThat(most.get())
                .as("most handlers running at once")
                .isLessThanOrEqualTo(cap)
                .isGreaterThan(0);
    }

    @Test
    void pullReservationsHoldPlacesUntilAckedOrTheirLeaseExpires(Hourglass hourglass) throws InterruptedException {
        hourglass.inspector().configureTopic(TOPIC, new TopicConfig(0, 0, shards()));
        scheduleNow(hourglass, idsOnEveryShard(3));

        List<Delivery> first = hourglass.reserve(TOPIC, 100, Duration.ofMillis(1500));
        assertThat(first).as("one place per shard").hasSize(shards());
        assertThat(hourglass.reserve(TOPIC, 100, null)).as("every place taken").isEmpty();

        hourglass.ack(TOPIC, first.get(0).id(), first.get(0).receipt());
        assertThat(hourglass.reserve(TOPIC, 100, Duration.ofMinutes(1)))
                .as("the ack freed one place")
                .hasSize(1);

        Thread.sleep(1600);
        assertThat(hourglass.reserve(TOPIC, 100, Duration.ofMinutes(1)))
                .as("the expired leases freed their places")
                .hasSize(shards() - 1);
    }
}
