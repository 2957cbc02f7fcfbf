package io.hourglass.cli;

import static io.hourglass.cli.Output.row;

import io.hourglass.tier.jdbc.JdbcColdTier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hourglass tier}: what waits in the cold tier ({@code hourglass-tier-jdbc}) for the namespace: jobs per topic,
 * the earliest due time and, given the horizon, how far the feeders are behind. It reads PostgreSQL itself
 * ({@code --tier-jdbc-url}), as {@code hourglass history} does, at the bounded cost of {@link JdbcColdTier#backlog()}.
 * Reads only: it never creates or changes the schema. The jobs a feeder moved are counted in each process that runs one
 * (the server's {@code GET /v1/tier}), not in the database, so they are not shown here.
 */
@Command(
        name = "tier",
        description = "Shows the cold tier in PostgreSQL: the namespace's jobs waiting there beyond the horizon, per"
                + " topic, the earliest due time and, with --tier-horizon, how far the feeders are behind. Needs the"
                + " tier's database: --tier-jdbc-url.")
final class TierCommand implements Callable<Integer> {
    @ParentCommand
    HourglassCli root;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--tier-jdbc-url",
            paramLabel = "URL",
            description = "the cold tier's PostgreSQL, e.g. jdbc:postgresql://db:5432/app (default:"
                    + " $HOURGLASS_TIER_JDBC_URL)")
    String jdbcUrl;

    @Option(
            names = "--tier-jdbc-user",
            paramLabel = "USER",
            description = "its database user (default: $HOURGLASS_TIER_JDBC_USER, else the URL's)")
    String user;

    @Option(
            names = "--tier-jdbc-password",
            paramLabel = "PASSWORD",
            description = "that user's password (default: $HOURGLASS_TIER_JDBC_PASSWORD; prefer it: a command line is"
                    + " visible to other users of the machine)")
    String password;

    @Option(
            names = "--tier-horizon",
            paramLabel = "DURATION",
            converter = Commands.DurationConverter.class,
            description = "the namespace's horizon, as its instances use it (1h, PT1H), to tell how far the feeders are"
                    + " behind (default: $HOURGLASS_TIER_HORIZON; without it the lag is not shown)")
    Duration horizon;

    /** The tier in JSON; {@code horizonMs} and {@code lagMs} null without {@code --tier-horizon}. */
    record TierView(String namespace, Long horizonMs, Long lagMs, WaitingView waiting) {}

    /** The waiting jobs in JSON, as the server's {@code GET /v1/tier} shows them. */
    record WaitingView(
            long jobs, boolean exact, Map<String, Long> topics, String earliestDueAt, long tableRowsEstimate) {}

    @Override
    public Integer call() {
        var database = PostgresConnection.dataSource(spec, "--tier-jdbc-url", jdbcUrl, user, password);
        if (horizon != null && (horizon.isZero() || horizon.isNegative())) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--tier-horizon: must be positive");
        }
        JdbcColdTier.Backlog backlog;
        Instant now = Instant.now();
        try (JdbcColdTier tier = JdbcColdTier.builder()
                .namespace(root.namespace)
                .dataSource(database)
                .migrate(false)
                .feeder(false)
                .build()) {
            backlog = tier.backlog();
        }
        Duration lag = horizon == null ? null : backlog.lag(horizon, now);
        Output output = new Output(spec.commandLine().getOut(), root.json);
        if (output.json()) {
            output.printJson(new TierView(
                    root.namespace,
                    horizon == null ? null : horizon.toMillis(),
                    lag == null ? null : lag.toMillis(),
                    new WaitingView(
                            backlog.jobs(),
                            backlog.exact(),
                            backlog.topics(),
                            Output.time(backlog.earliestDue()),
                            backlog.tableRowsEstimate())));
            return HourglassCli.EXIT_OK;
        }
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("namespace", root.namespace);
        fields.put("waiting", (backlog.exact() ? "" : "more than ") + backlog.jobs());
        fields.put("earliest due", Output.timeCell(backlog.earliestDue()));
        fields.put("horizon", horizon == null ? "- (give --tier-horizon for the lag)" : Output.duration(horizon));
        fields.put("lag", lag == null ? "-" : Output.duration(lag));
        fields.put(
                "table rows",
                backlog.tableRowsEstimate() < 0
                        ? "- (never analysed)"
                        : "about " + backlog.tableRowsEstimate() + ", every namespace");
        output.printFields(fields);
        if (backlog.topics() != null && !backlog.topics().isEmpty()) {
            output.println("");
            List<List<String>> rows = new ArrayList<>();
            backlog.topics().forEach((topic, jobs) -> rows.add(row(topic, "" + jobs)));
            output.printTable(row("TOPIC", "WAITING"), rows);
        }
        return HourglassCli.EXIT_OK;
    }
}
