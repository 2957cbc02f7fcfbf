package io.hourglass.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Backoff;
import io.hourglass.JobRequest;
import io.hourglass.history.jdbc.HistoryEntry;
import io.hourglass.history.jdbc.HistoryOutcome;
import io.hourglass.history.jdbc.HistoryStore;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.tier.jdbc.JdbcColdTier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code hourglass history} against a real PostgreSQL holding a history the store wrote: filters, pages, tables and
 * JSON, and its usage errors. In the same PostgreSQL, {@code hourglass tier} reads the jobs a cold tier holds.
 */
@PostgresTest
class CliHistoryIntegrationTests {
    private static final Instant T0 = Instant.parse("2026-11-26T09:00:00Z");
    private static Map<String, String> environment;
    private static PGSimpleDataSource database;

    @BeforeAll
    static void fillTheHistory(PostgresProcess postgres) throws Exception {
        database = new PGSimpleDataSource();
        database.setURL(postgres.jdbcUrl());
        database.setUser(postgres.user());
        HistoryStore store = new HistoryStore(database);
        store.migrate();
        List<HistoryEntry> entries = new ArrayList<>();
        entries.add(entry("orders", "o-1", HistoryOutcome.ACKED, null, 1, "{\"order\":1}"));
        entries.add(entry("orders", "o-2", HistoryOutcome.DEAD, "card\ndeclined", 2, null));
        entries.add(entry("orders", "o-3", HistoryOutcome.CANCELLED, null, 3, null));
        entries.add(entry("mails", "m-1", HistoryOutcome.ACKED, null, 4, null));
        store.write(entries);
        environment = Map.of(
                "HOURGLASS_HISTORY_JDBC_URL",
                postgres.jdbcUrl(),
                "HOURGLASS_HISTORY_JDBC_USER",
                "postgres",
                "HOURGLASS_TIER_JDBC_URL",
                postgres.jdbcUrl(),
                "HOURGLASS_TIER_JDBC_USER",
                "postgres");
    }

    private static HistoryEntry entry(
            String topic, String id, HistoryOutcome outcome, String error, int minute, String payload) {
        byte[] bytes = payload == null ? null : payload.getBytes(StandardCharsets.UTF_8);
        return new HistoryEntry(
                topic,
                0,
                minute + "-0",
                id,
                outcome,
                outcome == HistoryOutcome.DEAD ? 3 : 1,
                3,
                T0,
                T0.plusSeconds(60L * minute),
                error,
                null,
                bytes,
                bytes == null ? 0 : bytes.length);
    }

    private static CliRun ok(String... args) {
        CliRun run = CliRun.of(environment, args);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return run;
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("entries").forEach(e -> ids.add(e.get("id").asText()));
        return ids;
    }

    @Test
    void listsNewestFirstAsATableAndAsJson() {
        CliRun table = ok("history", "--topic", "orders");
        List<String> lines = table.out().lines().toList();
        assertThat(lines.get(0)).startsWith("COMPLETED AT").contains("OUTCOME", "LAST ERROR");
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1)).contains("o-3", "CANCELLED", "1/3");
        // The error's newline is flattened, so one entry stays one line.
        assertThat(lines.get(2)).contains("o-2", "DEAD", "3/3", "card declined");

        JsonNode json = ok("history", "--json").json();
        assertThat(ids(json)).containsExactly("m-1", "o-3", "o-2", "o-1");
        JsonNode acked = json.get("entries").get(3);
        assertThat(acked.get("completedAt").asText()).isEqualTo("2026-11-26T09:01:00Z");
        assertThat(acked.get("payload").get("order").asInt()).isEqualTo(1);
        assertThat(json.get("nextCursor").isNull()).isTrue();
    }

    @Test
    void filtersByOutcomeIdAndTimeAndPagesWithTheCursor() {
        assertThat(ids(ok("history", "--outcome", "dead", "--json").json())).containsExactly("o-2");
        assertThat(ids(ok("history", "--id", "m-1", "--json").json())).containsExactly("m-1");
        assertThat(ids(ok(
                                "history",
                                "--from",
                                "2026-11-26T09:02:00Z",
                                "--to",
                                "" + T0.plusSeconds(240).toEpochMilli(),
                                "--json")
                        .json()))
                .containsExactly("o-3", "o-2");

        CliRun first = ok("history", "--topic", "orders", "--limit", "2", "--json");
        assertThat(ids(first.json())).containsExactly("o-3", "o-2");
        String cursor = first.json().get("nextCursor").asText();
        assertThat(ids(ok("history", "--topic", "orders", "--limit", "2", "--cursor", cursor, "--json")
                        .json()))
                .containsExactly("o-1");
        CliRun table = ok("history", "--topic", "orders", "--limit", "2");
        assertThat(table.err()).contains("more: --cursor " + cursor);
    }

    @Test
    void badFiltersAndAMissingUrlAreUsageErrors() {
        for (String[] args : new String[][] {
            {"history", "--outcome", "LOST"},
            {"history", "--from", "yesterday"},
            {"history", "--limit", "0"},
            {"history", "--cursor", "nonsense"},
            {"history", "--from", "2026-11-26T10:00:00Z", "--to", "2026-11-26T09:00:00Z"}
        }) {
            CliRun run = CliRun.of(environment, args);
            assertThat(run.exitCode()).as(String.join(" ", args) + "\n" + run).isEqualTo(HourglassCli.EXIT_USAGE);
            assertThat(run.err()).startsWith("hourglass: ");
            assertThat(run.out()).isEmpty();
        }
        CliRun noUrl = CliRun.of(Map.of(), "history");
        assertThat(noUrl.exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(noUrl.err()).contains("--history-jdbc-url: required");
    }

    /** A job as the core hands it to the cold tier: every option resolved. */
    private static JobRequest cold(String topic, String id, Instant due) {
        return JobRequest.builder(topic)
                .id(id)
                .runAt(due)
                .payload("{}")
                .maxAttempts(3)
                .lease(Duration.ofSeconds(30))
                .backoff(Backoff.fixed(Duration.ofSeconds(1)))
                .idempotencyWindow(Duration.ZERO)
                .build();
    }

    @Test
    void tierShowsTheJobsWaitingInTheColdTierPerTopicAndHowFarTheFeedersAreBehind() {
        Instant due = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MILLIS);
        try (JdbcColdTier tier = JdbcColdTier.builder()
                        .namespace("cli-tier")
                        .dataSource(database)
                        .feeder(false)
                        .build();
                JdbcColdTier other = JdbcColdTier.builder()
                        .namespace("other")
                        .dataSource(database)
                        .migrate(false)
                        .build()) {
            tier.store(cold("renewals", "r-1", due.plusSeconds(60)));
            tier.store(cold("renewals", "r-2", due));
            tier.store(cold("mails", "m-1", due.plusSeconds(120)));
            other.store(cold("renewals", "o-1", due.minusSeconds(60)));
        }

        JsonNode json = ok("tier", "--namespace", "cli-tier", "--tier-horizon", "1h", "--json")
                .json();
        assertThat(json.get("namespace").asText()).isEqualTo("cli-tier");
        assertThat(json.get("horizonMs").asLong()).isEqualTo(3_600_000);
        assertThat(json.get("lagMs").asLong()).isZero();
        JsonNode waiting = json.get("waiting");
        assertThat(waiting.get("jobs").asLong()).isEqualTo(3);
        assertThat(waiting.get("exact").asBoolean()).isTrue();
        assertThat(waiting.get("topics").toString()).isEqualTo("{\"mails\":1,\"renewals\":2}");
        assertThat(waiting.get("earliestDueAt").asText()).isEqualTo(due.toString());
        // With a 2-day horizon the earliest job came within it about a day ago, and is not in Redis yet.
        long lagMs = ok("tier", "--namespace", "cli-tier", "--tier-horizon", "2d", "--json")
                .json()
                .get("lagMs")
                .asLong();
        assertThat(lagMs)
                .isBetween(Duration.ofHours(23).toMillis(), Duration.ofHours(25).toMillis());

        List<String> table = ok("tier", "--namespace", "cli-tier").out().lines().toList();
        assertThat(table).anySatisfy(line -> assertThat(line).matches("waiting +3"));
        assertThat(table)
                .anySatisfy(line -> assertThat(line).startsWith("horizon").contains("--tier-horizon"));
        assertThat(table).anySatisfy(line -> assertThat(line).matches("renewals +2"));

        CliRun noUrl = CliRun.of(Map.of(), "tier");
        assertThat(noUrl.exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(noUrl.err()).contains("--tier-jdbc-url: required (or HOURGLASS_TIER_JDBC_URL)");
        CliRun badHorizon = CliRun.of(environment, "tier", "--tier-horizon", "soon");
        assertThat(badHorizon.exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(badHorizon.err()).contains("--tier-horizon");
    }
}
