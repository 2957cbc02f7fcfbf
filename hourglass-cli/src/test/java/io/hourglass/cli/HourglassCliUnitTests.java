package io.hourglass.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.Inspector;
import io.hourglass.history.jdbc.HistoryQuery;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What the command line does before or without a Redis: usage errors, help, completion, an unreachable Redis. */
class HourglassCliUnitTests {
    /** The committed completion script, for shells of users who do not run {@code hourglass completion}. */
    static final Path COMPLETION_SCRIPT = Path.of("completion", "hourglass.bash");

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aRedisThatCannotBeReachedExitsWith3AndSaysWhere() throws IOException {
        int port = closedPort();
        CliRun run = CliRun.of(Map.of("HOURGLASS_REDIS", "redis://127.0.0.1:" + port), "topics", "--json");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(HourglassCli.EXIT_REDIS_UNAVAILABLE);
        assertThat(run.err()).startsWith("hourglass: Redis cannot be reached: ").contains("127.0.0.1:" + port);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void theRedisPasswordIsNeverPrinted() throws IOException {
        String uri = "redis://user:s3cret-pass@127.0.0.1:" + closedPort();
        CliRun help = CliRun.of(Map.of("HOURGLASS_REDIS", uri), "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("--redis=URI").doesNotContain("s3cret-pass");
        CliRun unreachable = CliRun.of(Map.of(), "--redis", uri, "topics");
        assertThat(unreachable.exitCode()).isEqualTo(HourglassCli.EXIT_REDIS_UNAVAILABLE);
        assertThat(unreachable.err()).doesNotContain("s3cret-pass");
    }

    @Test
    void usageErrorsExitWith2BeforeConnecting() throws IOException {
        Map<String, String> unreachable = Map.of("HOURGLASS_REDIS", "redis://127.0.0.1:" + closedPort());
        for (String[] args : new String[][] {
            {"topics", "--bogus"},
            {"stats"},
            {"get", "orders"},
            {"jobs", "orders", "--state", "LOST"},
            {"jobs", "orders", "--state", "ready", "--limit", "many"},
            {"schedule", "orders", "--payload", "1", "--delay", "-5s"},
            {"--shards", "two", "topics"},
            {"nonsense"}
        }) {
            CliRun run = CliRun.of(unreachable, args);
            assertThat(run.exitCode()).as(String.join(" ", args) + "\n" + run).isEqualTo(HourglassCli.EXIT_USAGE);
            assertThat(run.err()).startsWith("hourglass: ").contains("--help");
            assertThat(run.out()).isEmpty();
        }
    }

    @Test
    void badConnectionSettingsAreUsageErrors() {
        CliRun shards = CliRun.of(Map.of("HOURGLASS_SHARDS", "0"), "topics");
        assertThat(shards.exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(shards.err()).contains("shards");
        CliRun namespace = CliRun.of(Map.of(), "--namespace", "no spaces", "topics");
        assertThat(namespace.exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(namespace.err()).contains("namespace");
    }

    @Test
    void helpListsTheCommandsExitCodesAndEnvironment() {
        CliRun help = CliRun.of(Map.of(), "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .contains("topics", "stats", "jobs", "get", "cancel", "run", "dead", "requeue", "purge", "pause")
                .contains("resume", "schedule", "completion", "history", "tier")
                .contains("3   Redis cannot be reached")
                .contains("HOURGLASS_REDIS");
        assertThat(CliRun.of(Map.of(), "jobs", "--help").out()).contains("SCHEDULED, READY, ACTIVE, DEAD");
        // PageOptions's --limit names one range for the job listings and the history.
        assertThat(HistoryQuery.MAX_LIMIT).isEqualTo(Inspector.MAX_PAGE);
        assertThat(CliRun.of(Map.of(), "--version").out()).startsWith("hourglass-cli ");
    }

    @Test
    void theCommittedCompletionScriptIsTheGeneratedOne() throws IOException {
        CliRun run = CliRun.of(Map.of(), "completion");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("complete -F _complete_hourglass")
                .contains("requeue")
                .contains("--state");
        assertThat(Files.readString(COMPLETION_SCRIPT, StandardCharsets.UTF_8))
                .as("regenerate it: java -jar hourglass-cli/target/hourglass-cli.jar completion"
                        + " > hourglass-cli/completion/hourglass.bash")
                .isEqualTo(run.out());
    }

    @Test
    void durationsReadTheShortAndTheIsoForm() {
        Commands.DurationConverter converter = new Commands.DurationConverter();
        assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(converter.convert("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(converter.convert("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(converter.convert("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(converter.convert("1d")).isEqualTo(Duration.ofDays(1));
        assertThat(converter.convert("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
        for (String bad : new String[] {"", "10", "-1s", "PT-1S", "1.5s", "10 parsecs"}) {
            assertThatThrownBy(() -> converter.convert(bad))
                    .as(bad)
                    .isInstanceOf(CommandLine.TypeConversionException.class)
                    .hasMessageContaining("not a duration");
        }
    }

    @Test
    void tableCellsStayOnOneShortLine() {
        assertThat(Output.textCell(null)).isEqualTo("-");
        assertThat(Output.textCell("a\nb\tc")).isEqualTo("a b c");
        String cut = Output.textCell("x".repeat(100));
        assertThat(cut).hasSize(Output.TEXT_CELL).endsWith("…");
        assertThat(Output.duration(Duration.ofMillis(850))).isEqualTo("850ms");
        assertThat(Output.duration(Duration.ofMillis(12_345))).isEqualTo("12.3s");
        assertThat(Output.duration(Duration.ofSeconds(245))).isEqualTo("4m05s");
        assertThat(Output.duration(Duration.ofMinutes(130))).isEqualTo("2h10m");
    }
}
