package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobInfo;
import io.hourglass.JobState;
import io.hourglass.Schedule;
import io.hourglass.ScheduleInfo;
import io.hourglass.Schedules;
import io.hourglass.StorageFormat;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Recurring schedules: stored definitions, and ticks that become exactly one job each whatever the number of tickers.
 * Run once per shard count by its subclasses; the test kit checks the invariants after each test.
 */
abstract class ScheduleSuite {
    static final String TOPIC = "ticks";
    static final String EVERY_SECOND = "* * * * * *";

    /** Each tick job's id, with how often it was delivered, in the order of the ticks. */
    static Map<Long, Integer> recordDeliveries(Hourglass hourglass, Map<String, String> payloads) {
        Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
        hourglass.subscribe(TOPIC, job -> {
            long tick = Long.parseLong(job.id().substring(job.id().lastIndexOf(':') + 1));
            assertThat(job.dueAt()).isEqualTo(Instant.ofEpochMilli(tick));
            deliveries.merge(tick, 1, Integer::sum);
            payloads.put(job.id(), job.payloadAsString());
        });
        return deliveries;
    }

    @Test
    void aScheduleIsStoredReadBackWithItsNextFireTimesAndDeleted(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.scheduleTicker(false));
        Instant before = Instant.now().minusSeconds(1);
        ScheduleInfo put = hourglass
                .schedules()
                .put(Schedule.builder("nightly", "reports", "0 3 * * *")
                        .zone("Europe/Berlin")
                        .payload("{\"kind\":\"daily\"}")
                        .maxAttempts(3)
                        .misfirePolicy(Schedule.MisfirePolicy.SKIP)
                        .build());
        assertThat(put.updatedAt()).isBetween(before, Instant.now().plusSeconds(1));
        assertThat(put.lastTick()).isNull();
        assertThat(put.nextFireTimes()).hasSize(Schedules.NEXT_FIRE_TIMES);
        assertThat(put.nextFireTimes().get(0)).isAfter(put.updatedAt());
        assertThat(put.nextFireTimes()).allSatisfy(t -> assertThat(t.atZone(java.time.ZoneId.of("Europe/Berlin"))
                        .toLocalTime()
                        .toString())
                .isEqualTo("03:00"));
        hourglass
                .schedules()
                .put(Schedule.builder("hourly", "reports", "0 * * * *").build());

        ScheduleInfo read = hourglass.schedules().get("nightly").orElseThrow();
        assertThat(read.schedule().cron()).isEqualTo("0 3 * * *");
        assertThat(read.schedule().payload()).asString().isEqualTo("{\"kind\":\"daily\"}");
        assertThat(read.schedule().maxAttempts()).isEqualTo(3);
        assertThat(read.schedule().misfirePolicy()).isEqualTo(Schedule.MisfirePolicy.SKIP);
        assertThat(read.updatedAt()).isEqualTo(put.updatedAt());
        assertThat(hourglass.schedules().list())
                .extracting(i -> i.schedule().name())
                .containsExactly("hourly", "nightly");

        assertThat(hourglass.schedules().delete("nightly")).isTrue();
        assertThat(hourglass.schedules().delete("nightly")).isFalse();
        assertThat(hourglass.schedules().get("nightly")).isEmpty();
        assertThat(hourglass.schedules().list()).hasSize(1);
    }

    @Test
    void badInputIsRefusedNamingTheFieldAndChangesNothing(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.scheduleTicker(false).maxPayloadBytes(8));
        assertThatThrownBy(() -> hourglass
                        .schedules()
                        .put(Schedule.builder("big", TOPIC, EVERY_SECOND)
                                .payload("123456789")
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("payload:");
        assertThatThrownBy(() -> hourglass
                        .schedules()
                        .put(Schedule.builder("inward", TOPIC, EVERY_SECOND)
                                .callbackUrl(URI.create("http://127.0.0.1:8080/hook"))
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("callbackUrl:");
        assertThatThrownBy(() -> Schedule.builder("bad", TOPIC, "every day"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cron:");
        assertThatThrownBy(() -> Schedule.builder("a b", TOPIC, EVERY_SECOND))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("name:");
        assertThatThrownBy(() -> hourglass.schedules().get("a:b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("name:");
        assertThat(hourglass.schedules().list()).isEmpty();
    }

    @Test
    void aScheduleFiringEverySecondMakesExactlyOneJobPerTickWhateverTheNumberOfTickers(HourglassFactory factory) {
        Hourglass admin = factory.create(b -> b.scheduleTicker(false));
        Map<Long, Integer> deliveries = recordDeliveries(admin, new ConcurrentHashMap<>());
        // Three tickers whose topic keeps no ended id: only the tick jobs' own least window keeps a tick from
        // repeating.
        for (int i = 0; i < 3; i++) {
            factory.create(b -> b.idempotencyWindow(TOPIC, Duration.ZERO));
        }
        admin.schedules()
                .put(Schedule.builder("every-second", TOPIC, EVERY_SECOND).build());
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() >= 4);
        admin.schedules().delete("every-second");
        Pause.millis(1500);
        List<Long> ticks = new ArrayList<>(new TreeMap<>(deliveries).keySet());
        assertThat(deliveries)
                .allSatisfy((tick, count) ->
                        assertThat(count).as("deliveries of tick %d", tick).isOne());
        for (int i = 1; i < ticks.size(); i++) {
            assertThat(ticks.get(i) - ticks.get(i - 1)).as("ticks %s", ticks).isEqualTo(1000);
        }
    }

    @Test
    void aTickJobCarriesTheSchedulesPayloadAndOptions(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(List.of("127.0.0.1")));
        ScheduleInfo put = hourglass
                .schedules()
                .put(Schedule.builder("hook", TOPIC, EVERY_SECOND)
                        .payload("ping")
                        .callbackUrl(URI.create("http://127.0.0.1:9/hook"))
                        .maxAttempts(2)
                        .lease(Duration.ofSeconds(5))
                        .build());
        Instant tick = put.nextFireTimes().get(0);
        String id = Schedules.tickId("hook", tick);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.get(TOPIC, id).isPresent());
        hourglass.schedules().delete("hook");
        JobInfo job = hourglass.get(TOPIC, id).orElseThrow();
        assertThat(job.state()).isEqualTo(JobState.READY);
        assertThat(job.dueAt()).isEqualTo(tick);
        assertThat(job.payloadAsString()).isEqualTo("ping");
        assertThat(job.callbackUrl()).isEqualTo(URI.create("http://127.0.0.1:9/hook"));
        assertThat(job.maxAttempts()).isEqualTo(2);
        assertThat(job.lease()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aChangeTakesEffectAtTheNextTickAndADeleteStopsTheTicks(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        Map<String, String> payloads = new ConcurrentHashMap<>();
        Map<Long, Integer> deliveries = recordDeliveries(hourglass, payloads);
        hourglass
                .schedules()
                .put(Schedule.builder("changing", TOPIC, EVERY_SECOND)
                        .payload("v1")
                        .build());
        await().atMost(Duration.ofSeconds(5)).until(() -> payloads.containsValue("v1"));
        Instant changedAt = hourglass
                .schedules()
                .put(Schedule.builder("changing", TOPIC, EVERY_SECOND)
                        .payload("v2")
                        .build())
                .updatedAt();
        await().atMost(Duration.ofSeconds(5)).until(() -> payloads.containsValue("v2"));
        payloads.forEach((id, payload) -> {
            long tick = Long.parseLong(id.substring(id.lastIndexOf(':') + 1));
            assertThat(payload)
                    .as("tick %d, changed at %s", tick, changedAt)
                    .isEqualTo(tick > changedAt.toEpochMilli() ? "v2" : "v1");
        });
        hourglass.schedules().delete("changing");
        Pause.millis(300);
        int afterDelete = deliveries.size();
        Pause.millis(2000);
        assertThat(deliveries).hasSize(afterDelete);
    }

    @Test
    void aTickerStartedAfterTheTicksRanAndTheirIdsWereReleasedDoesNotRunThemAgain(HourglassFactory factory) {
        Hourglass first = factory.create();
        Map<Long, Integer> deliveries = recordDeliveries(first, new ConcurrentHashMap<>());
        first.schedules().put(Schedule.builder("resumed", TOPIC, EVERY_SECOND).build());
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() >= 2);
        first.close();
        Hourglass admin = factory.create(b -> b.scheduleTicker(false));
        Instant lastTick = admin.schedules().get("resumed").orElseThrow().lastTick();
        assertThat(lastTick.toEpochMilli()).isGreaterThanOrEqualTo(new TreeMap<>(deliveries).lastKey());
        // As if the tick jobs' idempotency window had passed (and nothing was left to run): only the stored latest
        // tick stands in the way.
        for (JobState state : List.of(JobState.SCHEDULED, JobState.READY, JobState.ACTIVE)) {
            admin.inspector().purge(TOPIC, state);
        }
        onEveryShard(factory, (redis, prefix) -> redis.del(prefix + "ended", prefix + "ended:order"));

        Hourglass second = factory.create();
        Map<Long, Integer> later = recordDeliveries(second, new ConcurrentHashMap<>());
        await().atMost(Duration.ofSeconds(10)).until(() -> later.size() >= 2);
        second.schedules().delete("resumed");
        assertThat(later.keySet()).allSatisfy(tick -> assertThat(tick).isGreaterThan(lastTick.toEpochMilli()));
    }

    /** Runs {@code action} for every shard of the topic, on a plain connection to the test's Redis or cluster. */
    void onEveryShard(HourglassFactory factory, ShardAction action) {
        int shards = getClass().getAnnotation(RedisTest.class).shards();
        RawRedis.onTestRedis(getClass(), factory, redis -> {
            for (int shard = 0; shard < shards; shard++) {
                action.run(redis, StorageFormat.shardKeyPrefix(factory.namespace(), TOPIC, shard));
            }
            return null;
        });
    }

    interface ShardAction {
        void run(RedisClusterCommands<String, String> redis, String prefix);
    }
}
