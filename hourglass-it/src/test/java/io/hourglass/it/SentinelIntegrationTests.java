package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.embedded.RedisSentinelProcess;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Lettuce Sentinel URI finds the master and everything works through it. */
@RedisTest
class SentinelIntegrationTests {

    @Test
    void schedulesAndDeliversThroughASentinelUri(HourglassFactory factory, RedisServerProcess master, @TempDir Path dir)
            throws Exception {
        try (RedisSentinelProcess sentinel = RedisSentinelProcess.start(
                dir, "mymaster", master.host(), master.port(), 1, Duration.ofSeconds(5), Duration.ofSeconds(10))) {
            Hourglass hourglass =
                    factory.create(b -> b.redisUri("redis-sentinel://127.0.0.1:" + sentinel.port() + "#mymaster"));
            List<String> delivered = new CopyOnWriteArrayList<>();
            hourglass.subscribe("t", job -> delivered.add(job.id()));
            hourglass.schedule(JobRequest.builder("t")
                    .id("via-sentinel")
                    .delay(Duration.ofMillis(100))
                    .build());
            await().atMost(Duration.ofSeconds(5)).until(() -> delivered.contains("via-sentinel"));
            assertThat(delivered).containsExactly("via-sentinel");
        }
    }
}
