package io.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RedisClusterProcessIntegrationTests {

    @Test
    void aFailoverPromotesTheReplicaWithItsMastersDataAndDemotesTheMaster() throws Exception {
        try (RedisClusterProcess cluster = RedisClusterProcess.start(2, 1)) {
            RedisServerProcess master = cluster.nodes().get(0);
            RedisServerProcess other = cluster.nodes().get(1);
            RedisServerProcess replica = cluster.replicas().get(0);
            assertThat(cluster.masterUris()).containsExactly(master.uri(), other.uri());
            assertThat(cluster.seedUris())
                    .containsExactly(
                            master.uri(),
                            other.uri(),
                            replica.uri(),
                            cluster.replicas().get(1).uri());
            assertThat(Resp.call(replica, "INFO", "replication")).contains("role:slave");
            // The first master owns the lower half of the slots.
            String key = IntStream.range(0, 100)
                    .mapToObj(i -> "k" + i)
                    .filter(k -> SlotHash.getSlot(k) < 8192)
                    .findFirst()
                    .orElseThrow();
            assertThat(Resp.call(master, "SET", key, "kept")).isEqualTo("+OK");

            cluster.failover(replica);

            assertThat(cluster.masterUris()).containsExactlyInAnyOrder(replica.uri(), other.uri());
            assertThat(Resp.call(master, "INFO", "replication")).contains("role:slave");
            assertThat(cluster.ownerOf(SlotHash.getSlot(key))).isSameAs(replica);
            assertThat(Resp.call(replica, "GET", key)).isEqualTo("kept");
            assertThatThrownBy(() -> cluster.failover(replica))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("replica");
        }
    }

    @Test
    void nodeOptionsReachEveryNodeAndTheClustersOwnDirectivesWin() throws Exception {
        try (RedisClusterProcess cluster =
                RedisClusterProcess.start(1, 1, b -> b.arg("hz", "25").arg("cluster-node-timeout", "999999"))) {
            for (RedisServerProcess node :
                    List.of(cluster.nodes().get(0), cluster.replicas().get(0))) {
                assertThat(Resp.call(node, "CONFIG", "GET", "hz")).isEqualTo("hz\n25");
                assertThat(Resp.call(node, "CONFIG", "GET", "cluster-node-timeout"))
                        .isEqualTo("cluster-node-timeout\n2000");
            }
        }
    }

    @Test
    void nodeOptionsReturningNullAreRefusedByNameAndStopTheNodesAlreadyStarted() throws Exception {
        int firstPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            firstPort = socket.getLocalPort();
        }
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() ->
                        RedisClusterProcess.start(2, 0, b -> calls.incrementAndGet() == 1 ? b.port(firstPort) : null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeOptions");
        assertThat(calls).hasValue(2);
        try (Socket probe = new Socket()) {
            assertThatThrownBy(() -> probe.connect(new InetSocketAddress("127.0.0.1", firstPort), 1000))
                    .as("the first node, started before the second's options failed, is stopped")
                    .isInstanceOf(ConnectException.class);
        }
        assertThatThrownBy(() -> RedisClusterProcess.start(1, 0, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nodeOptions");
    }

    @Test
    void replicasPerMasterOutOfRangeIsRefused() {
        assertThatThrownBy(() -> RedisClusterProcess.start(1, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replicasPerMaster");
    }
}
