package io.hourglass.history.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HistoryArchiverBuilderUnitTests {

    @Test
    void badSettingsAreRefusedNamingTheirFieldBeforeAnythingConnects() {
        HistoryArchiver.Builder builder = HistoryArchiver.builder();
        assertThatThrownBy(() -> builder.namespace("default", 0)).hasMessageStartingWith("shards:");
        assertThatThrownBy(() -> builder.batchSize(0)).hasMessageStartingWith("batchSize:");
        assertThatThrownBy(() -> builder.pollInterval(Duration.ofMillis(1))).hasMessageStartingWith("pollInterval:");
        assertThatThrownBy(() -> builder.claimIdle(Duration.ofSeconds(-1))).hasMessageStartingWith("claimIdle:");
        assertThatThrownBy(() -> builder.retention(Duration.ofDays(-1))).hasMessageStartingWith("retention:");
        assertThatThrownBy(builder::clusterNodes).hasMessageStartingWith("clusterNodes:");

        assertThatThrownBy(builder::build).hasMessageStartingWith("redisUri:");
        builder.redisUri("redis://127.0.0.1:1");
        assertThatThrownBy(builder::build).hasMessageStartingWith("namespace:");
        builder.namespace("default", 1);
        assertThatThrownBy(builder::build).hasMessageStartingWith("dataSource:");
    }
}
