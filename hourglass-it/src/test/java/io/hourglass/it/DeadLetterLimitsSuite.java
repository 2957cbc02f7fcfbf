package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.ScheduleResult;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bounded dead letters: each topic keeps at most a count of dead letters, none older than an age; the oldest beyond
 * either limit are deleted inside the scripts that add dead letters (and by idle claims), and counted. Run once per
 * shard count by its subclasses.
 */
abstract class DeadLetterLimitsSuite {
    static final String TOPIC = "webhooks";

    int shards() {
        return getClass().getAnnotation(RedisTest.class).shards();
    }

    /** {@code n} ids that fall on shard 0 of the topic, so that one shard's limit is what a test sees. */
    List<String> idsOnOneShard(String prefix, int n) {
        return OneShardIds.of(this, prefix, n);
    }

    /** Schedules each job with one attempt and nacks it, one after another, so they die in this order. */
    static void kill(Hourglass hourglass, List<String> ids) throws InterruptedException {
        for (String id : ids) {
            hourglass.schedule(JobRequest.builder(TOPIC)
                    .id(id)
                    .payload("p-" + id)
                    .maxAttempts(1)
                    .build());
            Delivery d = hourglass.reserve(TOPIC, 1, null).get(0);
            hourglass.nack(TOPIC, d.id(), d.receipt(), "failed " + id, null);
            // Distinct times of death, so that "oldest" is the order of the list.
            Thread.sleep(3);
        }
    }

    static List<String> deadIds(Hourglass hourglass) {
        return hourglass.deadLetters(TOPIC, 0, 1000).stream().map(JobInfo::id).toList();
    }

    @Test
    void theOldestDeadLettersBeyondTheCountAreDeletedCountedAndReserved(HourglassFactory factory)
            throws InterruptedException {
        // Each shard keeps at most 2.
        Hourglass hourglass = factory.create(b -> b.deadLetterLimits(TOPIC, 2 * shards(), Duration.ZERO));
        List<String> ids = idsOnOneShard("d", 5);
        kill(hourglass, ids);

        assertThat(deadIds(hourglass)).containsExactlyInAnyOrder(ids.get(3), ids.get(4));
        assertThat(hourglass.inspector().topic(TOPIC).deadLettersTrimmed()).isEqualTo(3);
        assertThat(hourglass.inspector().topic(TOPIC).dead()).isEqualTo(2);
        assertThat(hourglass.get(TOPIC, ids.get(0))).isEmpty();
        // A trimmed dead letter is gone as if deleted: its id stays reserved for its window, from its time of death.
        assertThatThrownBy(() -> hourglass.schedule(JobRequest.builder(TOPIC)
                        .id(ids.get(0))
                        .payload("again")
                        .build()))
                .isInstanceOf(JobAlreadyExistsException.class)
                .satisfies(e -> assertThat(
                                ((JobAlreadyExistsException) e).existing().ended())
                        .isEqualTo(ScheduleResult.Ended.DEAD));
    }

    @Test
    void deadLettersPastTheAgeAreDeletedWhenTheNextDies(HourglassFactory factory) throws InterruptedException {
        Hourglass hourglass = factory.create(
                b -> b.deadLetterLimits(TOPIC, 0, Duration.ofMillis(300)).historyEvents(1000, 64));
        List<String> ids = idsOnOneShard("a", 3);
        kill(hourglass, ids.subList(0, 2));
        Thread.sleep(400);
        kill(hourglass, ids.subList(2, 3));

        assertThat(deadIds(hourglass)).containsExactly(ids.get(2));
        assertThat(hourglass.inspector().topic(TOPIC).deadLettersTrimmed()).isEqualTo(2);
        // With history on, each trimmed dead letter is offered to the archive once more, as TRIMMED.
        List<Map<String, String>> trimmed = TopicKeys.events(getClass(), factory, TOPIC).stream()
                .filter(e -> e.get("outcome").equals("TRIMMED"))
                .toList();
        assertThat(trimmed).extracting(e -> e.get("id")).containsExactlyInAnyOrder(ids.get(0), ids.get(1));
        assertThat(trimmed.get(0))
                .containsEntry("attempts", "1")
                .containsEntry("error", "failed " + trimmed.get(0).get("id"))
                .containsEntry("payload", "p-" + trimmed.get(0).get("id"));
    }

    @Test
    void anIdleClaimDeletesDeadLettersThatAgedPastTheLimit(HourglassFactory factory) throws InterruptedException {
        Hourglass hourglass = factory.create(b -> b.deadLetterLimits(TOPIC, 0, Duration.ofMillis(300)));
        kill(hourglass, idsOnOneShard("i", 2));
        assertThat(deadIds(hourglass)).hasSize(2);

        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> hourglass.reserve(TOPIC, 1, null).isEmpty()
                        && hourglass.inspector().topic(TOPIC).dead() == 0);
        assertThat(hourglass.inspector().topic(TOPIC).deadLettersTrimmed()).isEqualTo(2);
    }

    @Test
    void aLeaseThatDiesOnItsLastAttemptTrimsToo(HourglassFactory factory) throws InterruptedException {
        Hourglass hourglass = factory.create(b -> b.deadLetterLimits(TOPIC, shards(), Duration.ZERO));
        List<String> ids = idsOnOneShard("l", 2);
        for (String id : ids) {
            hourglass.schedule(JobRequest.builder(TOPIC)
                    .id(id)
                    .payload("p")
                    .maxAttempts(1)
                    .lease(Duration.ofMillis(50))
                    .build());
            assertThat(hourglass.reserve(TOPIC, 1, null)).hasSize(1);
            Thread.sleep(100);
            // This claim reaps the expired lease to the dead letters.
            assertThat(hourglass.reserve(TOPIC, 1, null)).isEmpty();
        }
        assertThat(deadIds(hourglass)).containsExactly(ids.get(1));
        assertThat(hourglass.inspector().topic(TOPIC).deadLettersTrimmed()).isEqualTo(1);
    }

    @Test
    void theDefaultsAreTenThousandAndFourteenDaysAndBadLimitsAreRefused(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        assertThat(hourglass.settings().deadLetterMaxCount(TOPIC)).isEqualTo(10_000);
        assertThat(hourglass.settings().deadLetterMaxAge(TOPIC)).isEqualTo(Duration.ofDays(14));
        assertThat(HourglassBuilder.DEFAULT_DEAD_LETTER_MAX_COUNT).isEqualTo(10_000);
        assertThatThrownBy(() -> Hourglass.builder().deadLetterLimits(-1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("deadLetterMaxCount:");
        assertThatThrownBy(() -> Hourglass.builder().deadLetterLimits(TOPIC, 5, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("deadLetterMaxAge:");
    }
}
