package io.hourglass.cli;

import static io.hourglass.cli.Output.row;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.history.jdbc.HistoryEntry;
import io.hourglass.history.jdbc.HistoryOutcome;
import io.hourglass.history.jdbc.HistoryPage;
import io.hourglass.history.jdbc.HistoryQuery;
import io.hourglass.history.jdbc.HistoryStore;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.postgresql.ds.PGSimpleDataSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hourglass history}: searches the job history that {@code hourglass-history-jdbc}'s archiver keeps in
 * PostgreSQL, newest completion first, a page at a time. It reads PostgreSQL itself ({@code --history-jdbc-url}), as
 * the other commands read Redis themselves: the command line needs no server, and serves library, starter and server
 * users alike. Reads only: it never creates or changes the schema.
 */
@Command(
        name = "history",
        description = "Searches the job history in PostgreSQL (jobs that ended: acked, dead, cancelled …), newest"
                + " first, a page at a time. Needs the history's database: --history-jdbc-url.")
final class HistoryCommand implements Callable<Integer> {
    @ParentCommand
    HourglassCli root;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--history-jdbc-url",
            paramLabel = "URL",
            description = "the history's PostgreSQL, e.g. jdbc:postgresql://db:5432/app (default:"
                    + " $HOURGLASS_HISTORY_JDBC_URL)")
    String jdbcUrl;

    @Option(
            names = "--history-jdbc-user",
            paramLabel = "USER",
            description = "its database user (default: $HOURGLASS_HISTORY_JDBC_USER, else the URL's)")
    String user;

    @Option(
            names = "--history-jdbc-password",
            paramLabel = "PASSWORD",
            description = "that user's password (default: $HOURGLASS_HISTORY_JDBC_PASSWORD; prefer it: a command"
                    + " line is visible to other users of the machine)")
    String password;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "only this topic")
    String topic;

    @Option(names = "--id", paramLabel = "ID", description = "only this job id")
    String id;

    @Option(names = "--outcome", paramLabel = "OUTCOME", description = "only this outcome: ${COMPLETION-CANDIDATES}")
    HistoryOutcome outcome;

    @Option(
            names = "--from",
            paramLabel = "TIME",
            converter = TimeConverter.class,
            description = "only jobs that ended at or after this time: ISO-8601 (2026-11-26T09:00:00Z) or ms since"
                    + " the epoch")
    Instant from;

    @Option(
            names = "--to",
            paramLabel = "TIME",
            converter = TimeConverter.class,
            description = "only jobs that ended before this time: ISO-8601 or ms since the epoch")
    Instant to;

    @Mixin
    PageOptions paging;

    /** An entry in JSON. */
    record EntryView(
            String topic,
            String id,
            String outcome,
            int attempts,
            int maxAttempts,
            String dueAt,
            String completedAt,
            String lastError,
            @JsonInclude(JsonInclude.Include.NON_NULL) String callbackUrl,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode payload,
            int payloadBytes) {
        static EntryView of(HistoryEntry e) {
            return new EntryView(
                    e.topic(),
                    e.jobId(),
                    e.outcome().name(),
                    e.attempts(),
                    e.maxAttempts(),
                    Output.time(e.dueAt()),
                    Output.time(e.completedAt()),
                    e.lastError(),
                    e.callbackUrl(),
                    e.payload() == null ? null : Output.payload(e.payload()),
                    e.payloadBytes());
        }
    }

    /** A page in JSON. */
    record PageView(List<EntryView> entries, String nextCursor) {}

    @Override
    public Integer call() {
        PGSimpleDataSource database =
                PostgresConnection.dataSource(spec, "--history-jdbc-url", jdbcUrl, user, password);
        HistoryQuery query;
        try {
            query = HistoryQuery.builder()
                    .topic(topic)
                    .jobId(id)
                    .outcome(outcome)
                    .completedBetween(from, to)
                    .cursor(paging.cursor)
                    .limit(paging.limit)
                    .build();
        } catch (IllegalArgumentException e) {
            throw usage("--" + e.getMessage());
        }
        HistoryPage page;
        try {
            page = new HistoryStore(database).query(query);
        } catch (SQLException e) {
            spec.commandLine().getErr().println("hourglass: the history's PostgreSQL failed: " + e.getMessage());
            return HourglassCli.EXIT_FAILURE;
        }
        print(page, new Output(spec.commandLine().getOut(), root.json));
        return HourglassCli.EXIT_OK;
    }

    private void print(HistoryPage page, Output output) {
        if (output.json()) {
            output.printJson(
                    new PageView(page.entries().stream().map(EntryView::of).toList(), page.nextCursor()));
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        for (HistoryEntry e : page.entries()) {
            rows.add(row(
                    Output.timeCell(e.completedAt()),
                    e.topic(),
                    e.jobId(),
                    e.outcome().name(),
                    e.attempts() + "/" + e.maxAttempts(),
                    Output.textCell(e.lastError())));
        }
        output.printTable(row("COMPLETED AT", "TOPIC", "ID", "OUTCOME", "ATTEMPTS", "LAST ERROR"), rows);
        if (page.nextCursor() != null) {
            spec.commandLine().getErr().println("more: --cursor " + page.nextCursor());
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** An ISO-8601 instant (or date-time with an offset) or ms since the epoch. */
    static final class TimeConverter implements CommandLine.ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            String text = value.trim();
            try {
                if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
                    return Instant.ofEpochMilli(Long.parseLong(text));
                }
                try {
                    return Instant.parse(text);
                } catch (DateTimeParseException e) {
                    return OffsetDateTime.parse(text).toInstant();
                }
            } catch (NumberFormatException | DateTimeParseException e) {
                throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not a time: give ISO-8601 (2026-11-26T09:00:00Z) or ms since the epoch");
            }
        }
    }
}
