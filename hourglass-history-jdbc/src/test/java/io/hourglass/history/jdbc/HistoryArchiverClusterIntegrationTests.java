package io.hourglass.history.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.embedded.RedisClusterProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

@RedisTest(clusterMasters = 3, shards = 8)
@PostgresTest
class HistoryArchiverClusterIntegrationTests {

    @Test
    void theArchiverReadsEveryShardsStreamOnItsMaster(
            HourglassFactory factory, RedisClusterProcess cluster, PostgresProcess postgres) throws Exception {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(postgres.jdbcUrl());
        dataSource.setUser(postgres.user());
        Hourglass hourglass = factory.create(b -> b.historyEvents(10_000, 0));
        for (int i = 0; i < 40; i++) {
            hourglass.schedule(JobRequest.builder("spread").id("job-" + i).build());
        }
        List<Delivery> deliveries = hourglass.reserve("spread", 100, Duration.ofSeconds(30));
        assertThat(deliveries).hasSize(40);
        deliveries.forEach(d -> hourglass.ack("spread", d.id(), d.receipt()));

        try (HistoryArchiver archiver = HistoryArchiver.builder()
                .clusterNodes(cluster.seedUris().toArray(String[]::new))
                .namespace(factory.namespace(), 8)
                .dataSource(dataSource)
                .build()) {
            assertThat(archiver.archiveOnce()).isEqualTo(40);
            List<HistoryEntry> entries = archiver.store()
                    .query(HistoryQuery.builder().topic("spread").limit(100).build())
                    .entries();
            assertThat(entries)
                    .extracting(HistoryEntry::jobId)
                    .doesNotHaveDuplicates()
                    .hasSize(40);
            assertThat(entries).extracting(HistoryEntry::shard).contains(0, 7);
        }
    }
}
