package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.Schedule;
import io.hourglass.TopicStats;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Three separate JVMs run the ticker of a schedule that fires every second, for 30 s; one is killed (SIGKILL) midway.
 * Every tick becomes exactly one job: none is missed when a ticker dies, none is created twice by the survivors.
 */
@RedisTest(shards = 1)
class ScheduleTickerProcessIntegrationTests {
    private static final String TOPIC = "ticks";

    @Test
    void aScheduleFiringEverySecondYieldsExactlyOneJobPerTickWhileATickerProcessIsKilled(
            HourglassFactory factory, RedisServerProcess redis) throws Exception {
        Hourglass hourglass = factory.create(b -> b.scheduleTicker(false));
        Map<Long, Integer> deliveries = ScheduleSuite.recordDeliveries(hourglass, new ConcurrentHashMap<>());
        List<Process> tickers = new ArrayList<>();
        try {
            CountDownLatch ready = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) {
                tickers.add(start(redis, factory.namespace(), ready));
            }
            assertThat(ready.await(60, TimeUnit.SECONDS))
                    .as("ticker processes started")
                    .isTrue();
            hourglass
                    .schedules()
                    .put(Schedule.builder("every-second", TOPIC, "* * * * * *").build());
            Thread.sleep(15_000);
            tickers.get(0).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            Thread.sleep(15_000);
            hourglass.schedules().delete("every-second");
            // Every tick job created before the delete is delivered and acked, however loaded the machine.
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                TopicStats stats = hourglass.stats(TOPIC);
                return stats.scheduled() + stats.ready() + stats.active() == 0;
            });
        } finally {
            for (Process p : tickers) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        TreeMap<Long, Integer> byTick = new TreeMap<>(deliveries);
        assertThat(byTick).hasSizeGreaterThanOrEqualTo(28);
        assertThat(byTick)
                .allSatisfy((tick, count) ->
                        assertThat(count).as("jobs of tick %d", tick).isOne());
        assertThat(byTick.lastKey() - byTick.firstKey())
                .as("one tick per second from the first to the last, none missed: %s", byTick.keySet())
                .isEqualTo(1000L * (byTick.size() - 1));
    }

    private static Process start(RedisServerProcess redis, String namespace, CountDownLatch ready) {
        return JavaProcess.start(ScheduleTickerProcessMain.class, List.of(redis.uri(), namespace), line -> {
            if (line.equals("READY")) {
                ready.countDown();
            }
        });
    }
}
