package io.hourglass.history.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.TopicStats;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

@RedisTest
@PostgresTest
class HistoryAcrossAWorkerKillIntegrationTests {
    private static final String TOPIC = "reports";

    @Test
    void jobsOfAWorkerKilledWithSigkillAreArchivedOnceWithTheOutcomeTheyReachedAfterwards(
            HourglassFactory factory, PostgresProcess postgres) throws Exception {
        Hourglass hourglass = factory.create(b -> b.historyEvents(10_000, 0));
        // Leases long enough that the killed worker cannot see one expire and take the job again on a slow machine.
        hourglass.schedule(JobRequest.builder(TOPIC)
                .id("retried")
                .maxAttempts(3)
                .lease(Duration.ofSeconds(5))
                .build());
        hourglass.schedule(JobRequest.builder(TOPIC)
                .id("last-attempt")
                .maxAttempts(1)
                .lease(Duration.ofSeconds(5))
                .build());

        Process worker = new ProcessBuilder(
                        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                        "-cp",
                        System.getProperty("java.class.path"),
                        HangingWorkerMain.class.getName(),
                        factory.redisUri(),
                        factory.namespace(),
                        TOPIC)
                .redirectErrorStream(true)
                .start();
        try {
            Set<String> running = new HashSet<>();
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while (running.size() < 2 && (line = out.readLine()) != null) {
                    if (line.startsWith("RUNNING ")) {
                        running.add(line.substring("RUNNING ".length()));
                    }
                }
                assertThat(running).containsExactlyInAnyOrder("retried", "last-attempt");
                // SIGKILL: no hand-back, no nack; the leases expire.
                worker.destroyForcibly();
                assertThat(worker.waitFor(10, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            worker.destroyForcibly();
        }

        hourglass.subscribe(TOPIC, job -> {});
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> hourglass.stats(TOPIC).equals(new TopicStats(TOPIC, 0, 0, 0, 1)));

        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(postgres.jdbcUrl());
        dataSource.setUser(postgres.user());
        try (HistoryArchiver archiver = HistoryArchiver.builder()
                .redisUri(factory.redisUri())
                .namespace(factory.namespace(), 1)
                .dataSource(dataSource)
                .build()) {
            archiver.archiveOnce();
            List<HistoryEntry> entries = archiver.store()
                    .query(HistoryQuery.builder().topic(TOPIC).build())
                    .entries();
            assertThat(entries).extracting(HistoryEntry::jobId).doesNotHaveDuplicates();
            Map<String, HistoryEntry> byId =
                    entries.stream().collect(Collectors.toMap(HistoryEntry::jobId, Function.identity()));
            assertThat(byId).containsOnlyKeys("retried", "last-attempt");
            assertThat(byId.get("retried").outcome()).isEqualTo(HistoryOutcome.ACKED);
            assertThat(byId.get("retried").attempts()).isEqualTo(2);
            assertThat(byId.get("retried").lastError()).isEqualTo("lease expired on attempt 1");
            assertThat(byId.get("last-attempt").outcome()).isEqualTo(HistoryOutcome.DEAD);
            assertThat(byId.get("last-attempt").attempts()).isEqualTo(1);
        }
    }
}
