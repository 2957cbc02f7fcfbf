package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A worker's ack that Redis refuses for a passing reason (BUSY here; TRYAGAIN while a cluster slot moves, READONLY in a
 * failover) is retried at once, not left to the job's lease, which would deliver it again.
 */
@RedisTest
class WriteRetryIntegrationTests {

    @Test
    void anAckRefusedForAMomentIsRetriedSoTheJobIsNotLeftToItsLease(HourglassFactory factory, RedisServerProcess redis)
            throws Exception {
        Hourglass hourglass = factory.create();
        CountDownLatch handlerMayReturn = new CountDownLatch(1);
        AtomicInteger deliveries = new AtomicInteger();
        hourglass.subscribe("t", job -> {
            deliveries.incrementAndGet();
            handlerMayReturn.await();
        });
        hourglass.schedule(JobRequest.builder("t").id("j").build());
        await().atMost(Duration.ofSeconds(3)).until(() -> hourglass.stats("t").active() == 1);

        try (StatefulRedisConnection<String, String> admin = RawRedis.connect(redis);
                StatefulRedisConnection<String, String> blocker = RawRedis.connect(redis)) {
            admin.sync().configSet("lua-time-limit", "50");
            // A script that never ends: past 50 ms Redis answers every other script with BUSY until it is killed.
            blocker.async().eval("while true do end", ScriptOutputType.INTEGER);
            Thread.sleep(200);
            handlerMayReturn.countDown();
            Thread.sleep(300);
            admin.sync().scriptKill();
        }

        await().atMost(Duration.ofSeconds(3)).until(() -> hourglass.stats("t").active() == 0);
        assertThat(hourglass.get("t", "j")).as("acked, so gone").isEmpty();
        assertThat(deliveries).as("the lease (30 s) never expired").hasValue(1);
    }
}
