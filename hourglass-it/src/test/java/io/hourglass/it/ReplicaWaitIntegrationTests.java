package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.RedisUnavailableException;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** waitForReplicas: a schedule returns only once a replica has the job, and says so when none confirms. */
@RedisTest
class ReplicaWaitIntegrationTests {

    @Test
    void aScheduleReturnsOnceTheReplicaHasTheJob(HourglassFactory factory, RedisServerProcess master) throws Exception {
        try (RedisServerProcess replica = RedisServerProcess.builder()
                .arg("replicaof", master.host(), Integer.toString(master.port()))
                .start()) {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> info(master, "replication").contains("state=online"));
            Hourglass hourglass = factory.create(b -> b.waitForReplicas(1, Duration.ofSeconds(2)));
            hourglass.schedule(JobRequest.builder("t")
                    .id("durable")
                    .payload("x")
                    .delay(Duration.ofHours(1))
                    .build());
            // No sleep: WAIT returned, so the replica already holds the record.
            assertThat(RawRedis.hget(replica, "hg:{" + factory.namespace() + ":t:0}:jobs", "durable"))
                    .isNotNull();
        }
    }

    @Test
    void aScheduleThatNoReplicaConfirmsFailsLoudly(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.waitForReplicas(1, Duration.ofMillis(100)));
        assertThatThrownBy(() ->
                        hourglass.schedule(JobRequest.builder("t").id("lonely").build()))
                .isInstanceOf(RedisUnavailableException.class)
                .hasMessageContaining("only 0 of 1 replicas");
    }

    @Test
    void waitingForReplicasIsRefusedForACluster() {
        assertThatThrownBy(() -> Hourglass.builder()
                        .clusterNodes("redis://127.0.0.1:1")
                        .waitForReplicas(1, Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("waitForReplicas:");
    }

    private static String info(RedisServerProcess redis, String section) {
        return RawRedis.call(redis, r -> r.info(section));
    }
}
