package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The only process that promotes is paused (SIGSTOP) while jobs come due; once it resumes, they flow at once. */
@RedisTest
class PausedWorkerProcessIntegrationTests {

    @Test
    void jobsThatCameDueDuringAPauseAreDeliveredWithinASweepOfTheResume(
            HourglassFactory factory, RedisServerProcess redis) throws Exception {
        long sweepMs = 300;
        Map<String, Long> deliveredAt = new ConcurrentHashMap<>();
        CountDownLatch ready = new CountDownLatch(1);
        Process worker = JavaProcess.start(
                WorkerProcessMain.class,
                List.of(redis.uri(), factory.namespace(), "paused", Long.toString(sweepMs)),
                line -> {
                    if (line.equals("READY")) {
                        ready.countDown();
                    } else if (line.startsWith("DELIVERED ")) {
                        String[] f = line.split(" ");
                        deliveredAt.put(f[1], Long.parseLong(f[2]));
                    }
                });
        try {
            assertThat(ready.await(60, TimeUnit.SECONDS))
                    .as("worker process started")
                    .isTrue();
            Hourglass producer = factory.create();
            Map<String, ScheduleResult> scheduled = new ConcurrentHashMap<>();
            for (int i = 0; i < 20; i++) {
                ScheduleResult r = producer.schedule(JobRequest.builder("paused")
                        .id("p" + i)
                        .delay(Duration.ofMillis(300 + 50 * i))
                        .build());
                scheduled.put(r.id(), r);
            }
            JavaProcess.signal("STOP", worker.pid());
            Thread.sleep(2000);
            assertThat(producer.stats("paused").ready()).as("due while paused").isEqualTo(20);
            long resumedAt = System.currentTimeMillis();
            JavaProcess.signal("CONT", worker.pid());

            await().atMost(Duration.ofSeconds(5)).until(() -> deliveredAt.size() == 20);
            for (String id : List.copyOf(deliveredAt.keySet())) {
                assertThat(deliveredAt.get(id))
                        .isGreaterThanOrEqualTo(scheduled.get(id).dueAt().toEpochMilli())
                        .isLessThan(resumedAt + sweepMs + 1000);
            }
            await().atMost(Duration.ofSeconds(3))
                    .until(() -> producer.stats("paused").active() == 0);
        } finally {
            worker.destroy();
            if (!worker.waitFor(10, TimeUnit.SECONDS)) {
                worker.destroyForcibly();
            }
        }
    }
}
