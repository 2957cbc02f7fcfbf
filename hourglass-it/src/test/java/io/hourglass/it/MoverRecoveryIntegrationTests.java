package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.ScheduleResult;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The mover never stalls (invariant 8): with the wake signal lost, Redis restarted or unreachable for a while,
 * promotion resumes within the backstop sweep and workers come back by themselves.
 */
@RedisTest
class MoverRecoveryIntegrationTests {
    private static final Duration SWEEP = Duration.ofMillis(300);

    @Test
    void aKilledPubSubConnectionDelaysNothingByMoreThanTheSweep(HourglassFactory factory, RedisServerProcess redis) {
        Hourglass worker = factory.create(b -> b.sweepInterval(SWEEP));
        Hourglass producer = factory.create();
        Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
        worker.subscribe("t", job -> deliveredAt.put(job.id(), System.currentTimeMillis()));
        Pause.millis(200);
        killPubSubClients(redis);
        ScheduleResult r =
                producer.schedule(JobRequest.builder("t").id("after-kill").build());
        await().atMost(Duration.ofSeconds(3)).until(() -> deliveredAt.containsKey("after-kill"));
        assertThat(deliveredAt.get("after-kill") - r.dueAt().toEpochMilli()).isLessThan(SWEEP.toMillis() + 700);

        // Lettuce resubscribes: signals work again, so a job far from any sweep is on time.
        Pause.millis(500);
        Hourglass slowSweep = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        Map<String, Long> onTime = new ConcurrentHashMap<>();
        slowSweep.subscribe("u", job -> onTime.put(job.id(), System.currentTimeMillis()));
        Pause.millis(300);
        killPubSubClients(redis);
        await().atMost(Duration.ofSeconds(5)).until(() -> pubSubClients(redis) >= 2);
        ScheduleResult later = producer.schedule(JobRequest.builder("u")
                .id("signalled")
                .delay(Duration.ofMillis(300))
                .build());
        await().atMost(Duration.ofSeconds(3)).until(() -> onTime.containsKey("signalled"));
        assertThat(onTime.get("signalled")).isGreaterThanOrEqualTo(later.dueAt().toEpochMilli());
    }

    @Test
    void workersCarryOnAfterRedisWasUnreachableAndLogItClearly(HourglassFactory factory) throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger topicWorkerLog = (Logger) LoggerFactory.getLogger("io.hourglass.internal.TopicWorker");
        topicWorkerLog.addAppender(log);
        try (RedisServerProcess own = RedisServerProcess.builder()
                .appendOnly(true)
                .appendFsync("always")
                .start()) {
            Hourglass hourglass = factory.create(
                    b -> b.redisUri(own.uri()).sweepInterval(SWEEP).commandTimeout(Duration.ofSeconds(1)));
            Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
            hourglass.subscribe("t", job -> deliveredAt.put(job.id(), System.currentTimeMillis()));
            ScheduleResult dueDuringOutage = hourglass.schedule(JobRequest.builder("t")
                    .id("during")
                    .delay(Duration.ofMillis(800))
                    .build());

            own.kill();
            Pause.millis(2000);
            own.restart();

            await().atMost(Duration.ofSeconds(5)).until(() -> deliveredAt.containsKey("during"));
            assertThat(deliveredAt.get("during"))
                    .isGreaterThanOrEqualTo(dueDuringOutage.dueAt().toEpochMilli());
            ScheduleResult after = hourglass.schedule(JobRequest.builder("t")
                    .id("after")
                    .delay(Duration.ofMillis(200))
                    .build());
            await().atMost(Duration.ofSeconds(3)).until(() -> deliveredAt.containsKey("after"));
            assertThat(deliveredAt.get("after"))
                    .isGreaterThanOrEqualTo(after.dueAt().toEpochMilli());

            List<String> lines =
                    log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
            assertThat(lines)
                    .anyMatch(l -> l.startsWith("claiming from topic t shard 0 failed; retrying at each sweep"));
            assertThat(lines).anyMatch(l -> l.equals("claiming from topic t shard 0 works again"));
            assertThat(lines.stream().filter(l -> l.contains("failed; retrying")))
                    .as("one line per outage, not per try")
                    .hasSize(1);
            hourglass.close();
        } finally {
            topicWorkerLog.detachAppender(log);
        }
    }

    private static void killPubSubClients(RedisServerProcess redis) {
        RawRedis.call(redis, r -> r.clientKill(io.lettuce.core.KillArgs.Builder.typePubsub()));
    }

    private static long pubSubClients(RedisServerProcess redis) {
        return RawRedis.call(
                redis,
                r -> r.clientList().lines().filter(l -> l.contains("psub=1")).count());
    }
}
