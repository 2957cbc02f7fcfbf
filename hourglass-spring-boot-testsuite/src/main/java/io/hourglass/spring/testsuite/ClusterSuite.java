package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.embedded.RedisClusterProcess;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;

/** The application's {@code spring.data.redis.cluster.nodes} connect Hourglass to a real Redis Cluster. */
@RedisTest(clusterMasters = 3)
public abstract class ClusterSuite extends SuiteSupport {

    @Test
    void springDataRedisClusterNodesConnectHourglassToTheCluster(RedisClusterProcess cluster, HourglassFactory redis) {
        String nodes = cluster.seedUris().stream()
                .map(uri -> uri.replaceFirst("^redis://", ""))
                .collect(Collectors.joining(","));
        runner().withConfiguration(AutoConfigurations.of(line().dataRedisAutoConfiguration()))
                .withPropertyValues(
                        "spring.data.redis.cluster.nodes=" + nodes,
                        "hourglass.namespace=" + redis.namespace(),
                        "hourglass.shards=8",
                        "hourglass.sweep-interval=200ms")
                .withBean(Listener.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(HourglassRedisConnection.class).isCluster())
                            .isTrue();
                    assertThat(context.getBean(Hourglass.class).shards()).isEqualTo(8);
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    for (int i = 0; i < 8; i++) {
                        template.schedule(
                                "order-timeout", "order-" + i, new OrderTimeout(i, "cluster"), Duration.ofMillis(50));
                    }
                    BlockingQueue<OrderTimeout> received = context.getBean(Listener.class).received;
                    for (int i = 0; i < 8; i++) {
                        assertThat(received.poll(10, TimeUnit.SECONDS)).isNotNull();
                    }
                });
    }

    /** Receives the cluster's jobs. */
    public static class Listener {
        final BlockingQueue<OrderTimeout> received = new LinkedBlockingQueue<>();

        @HourglassListener(topic = "order-timeout", concurrency = "4")
        void onJob(OrderTimeout payload) {
            received.add(payload);
        }
    }
}
