package io.hourglass.history.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

@PostgresTest
class HistoryStoreIntegrationTests {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final HistoryStore store;
    private final PGSimpleDataSource dataSource = new PGSimpleDataSource();

    HistoryStoreIntegrationTests(PostgresProcess postgres) {
        dataSource.setUrl(postgres.jdbcUrl());
        dataSource.setUser(postgres.user());
        store = new HistoryStore(dataSource);
    }

    @BeforeEach
    void emptyHistory() throws SQLException {
        store.migrate();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("TRUNCATE " + HistoryStore.TABLE);
        }
    }

    @Test
    void aRedeliveredEventMakesNoSecondRowAndTheMigrationRunsTwice() throws SQLException {
        List<HistoryEntry> batch =
                List.of(entry("a", 0, HistoryOutcome.ACKED, 1), entry("b", 1, HistoryOutcome.DEAD, 2));
        assertThat(store.write(batch)).isEqualTo(2);
        store.migrate();
        assertThat(store.write(batch)).isZero();
        assertThat(store.query(HistoryQuery.builder().build()).entries()).hasSize(2);
    }

    @Test
    void queriesFilterByTopicIdOutcomeAndTimeAndPageNewestFirstWithACursor() throws SQLException {
        List<HistoryEntry> batch = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            HistoryOutcome outcome = i % 5 == 0 ? HistoryOutcome.DEAD : HistoryOutcome.ACKED;
            batch.add(entry("job-" + i, i, outcome, i));
        }
        // Same completion time as job-24: the cursor tells them apart by row.
        batch.add(entry("twin", 99, HistoryOutcome.ACKED, 24));
        store.write(batch);

        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            HistoryPage page = store.query(HistoryQuery.builder()
                    .topic("orders")
                    .cursor(cursor)
                    .limit(7)
                    .build());
            page.entries().forEach(e -> seen.add(e.jobId()));
            cursor = page.nextCursor();
        } while (cursor != null);
        assertThat(seen).hasSize(26).doesNotHaveDuplicates();
        assertThat(seen.subList(0, 2)).containsExactlyInAnyOrder("job-24", "twin");
        assertThat(seen.get(25)).isEqualTo("job-0");

        HistoryPage failures = store.query(HistoryQuery.builder()
                .outcome(HistoryOutcome.DEAD)
                .completedBetween(T0.plusSeconds(5), T0.plusSeconds(20))
                .build());
        assertThat(failures.entries()).extracting(HistoryEntry::jobId).containsExactly("job-15", "job-10", "job-5");
        assertThat(failures.nextCursor()).isNull();

        assertThat(store.query(HistoryQuery.builder().jobId("job-7").build()).entries())
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.attempts()).isEqualTo(1);
                    assertThat(e.completedAt()).isEqualTo(T0.plusSeconds(7));
                    assertThat(e.lastError()).isEqualTo("error 7");
                });
        assertThat(store.query(HistoryQuery.builder().topic("other").build()).entries())
                .isEmpty();
    }

    @Test
    void retentionDeletesOnlyOlderEntriesInBatches() throws SQLException {
        List<HistoryEntry> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(entry("job-" + i, i, HistoryOutcome.ACKED, i));
        }
        store.write(batch);

        assertThat(store.deleteCompletedBefore(T0.plusSeconds(7), 2)).isEqualTo(7);
        assertThat(store.query(HistoryQuery.builder().build()).entries())
                .extracting(HistoryEntry::jobId)
                .containsExactly("job-9", "job-8", "job-7");
    }

    @Test
    void badQueriesNameTheirField() {
        assertThatThrownBy(() -> HistoryQuery.builder().limit(0).build()).hasMessageStartingWith("limit:");
        assertThatThrownBy(() -> HistoryQuery.builder().cursor("nope").build()).hasMessageStartingWith("cursor:");
        assertThatThrownBy(() -> HistoryQuery.builder()
                        .completedBetween(T0, T0.minusSeconds(1))
                        .build())
                .hasMessageStartingWith("to:");
    }

    private static HistoryEntry entry(String id, int eventSeq, HistoryOutcome outcome, int second) {
        return new HistoryEntry(
                "orders",
                0,
                "1700000000000-" + eventSeq,
                id,
                outcome,
                1,
                10,
                T0,
                T0.plusSeconds(second),
                "error " + second,
                null,
                null,
                0);
    }
}
