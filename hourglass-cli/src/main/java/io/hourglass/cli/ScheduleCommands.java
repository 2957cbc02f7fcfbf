package io.hourglass.cli;

import static io.hourglass.cli.Output.row;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Hourglass;
import io.hourglass.Schedule;
import io.hourglass.ScheduleInfo;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code hourglass schedules}: the namespace's recurring schedules ({@link io.hourglass.Schedules}), listed with
 * {@code list} (or no subcommand), shown with {@code get}, created or replaced with {@code set}, deleted with
 * {@code delete}. The command line never runs the ticker that turns ticks into jobs: the namespace's applications do.
 */
@Command(
        name = "schedules",
        description = "Lists, shows, sets and deletes the namespace's recurring schedules (cron expressions whose"
                + " ticks become jobs, exactly one per tick).",
        subcommands = {
            ScheduleCommands.ListSchedules.class,
            ScheduleCommands.Get.class,
            ScheduleCommands.Set.class,
            ScheduleCommands.Delete.class
        })
final class ScheduleCommands implements Callable<Integer> {
    @ParentCommand
    HourglassCli root;

    @Spec
    CommandSpec spec;

    ScheduleCommands() {}

    /** Without a subcommand: lists the schedules. */
    @Override
    public Integer call() {
        Output output = new Output(spec.commandLine().getOut(), root.json);
        try (Hourglass hourglass = root.connect()) {
            return list(hourglass, output);
        }
    }

    /** {@code schedules} and {@code schedules get} in JSON. */
    record ScheduleView(
            String name,
            String topic,
            String cron,
            String zone,
            JsonNode payload,
            String callbackUrl,
            Integer maxAttempts,
            Long leaseMs,
            String misfirePolicy,
            String updatedAt,
            String lastTick,
            List<String> nextFireTimes) {
        static ScheduleView of(ScheduleInfo info) {
            Schedule s = info.schedule();
            return new ScheduleView(
                    s.name(),
                    s.topic(),
                    s.cron(),
                    s.zone().getId(),
                    Output.payload(s.payload()),
                    s.callbackUrl() == null ? null : s.callbackUrl().toString(),
                    s.maxAttempts(),
                    s.lease() == null ? null : s.lease().toMillis(),
                    s.misfirePolicy().name().toLowerCase(Locale.ROOT),
                    Output.time(info.updatedAt()),
                    Output.time(info.lastTick()),
                    info.nextFireTimes().stream().map(Output::time).toList());
        }
    }

    static int list(Hourglass hourglass, Output output) {
        List<ScheduleInfo> all = hourglass.schedules().list();
        if (output.json()) {
            output.printJson(all.stream().map(ScheduleView::of).toList());
            return HourglassCli.EXIT_OK;
        }
        List<List<String>> rows = new ArrayList<>();
        for (ScheduleInfo info : all) {
            Schedule s = info.schedule();
            rows.add(row(
                    s.name(),
                    s.topic(),
                    s.cron(),
                    s.zone().getId(),
                    info.nextFireTimes().isEmpty()
                            ? "-"
                            : Output.time(info.nextFireTimes().get(0)),
                    Output.timeCell(info.lastTick())));
        }
        output.printTable(row("NAME", "TOPIC", "CRON", "ZONE", "NEXT", "LAST TICK"), rows);
        return HourglassCli.EXIT_OK;
    }

    static Commands.NotFoundException notFound(Hourglass hourglass, String name) {
        return new Commands.NotFoundException(
                "no schedule '" + name + "' in namespace '" + hourglass.namespace() + "'");
    }

    /** Connects through the root command's options, runs the subcommand and closes the connection. */
    abstract static class ScheduleCommand implements Callable<Integer> {
        @ParentCommand
        ScheduleCommands group;

        @Spec
        CommandSpec spec;

        @Override
        public final Integer call() {
            Output output = new Output(spec.commandLine().getOut(), group.root.json);
            try (Hourglass hourglass = group.root.connect()) {
                return run(hourglass, output);
            }
        }

        /** @return the exit code */
        abstract int run(Hourglass hourglass, Output output);
    }

    /** A subcommand that acts on one schedule, named by its first parameter. */
    abstract static class NamedScheduleCommand extends ScheduleCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "the schedule's name")
        String name;
    }

    @Command(name = "list", description = "Lists the schedules with their next fire time and latest tick.")
    static final class ListSchedules extends ScheduleCommand {
        @Override
        int run(Hourglass hourglass, Output output) {
            return list(hourglass, output);
        }
    }

    @Command(name = "get", description = "Shows one schedule with its next fire times. Exit code 1 when none.")
    static final class Get extends NamedScheduleCommand {
        @Override
        int run(Hourglass hourglass, Output output) {
            ScheduleInfo info = hourglass.schedules().get(name).orElseThrow(() -> notFound(hourglass, name));
            ScheduleView view = ScheduleView.of(info);
            if (output.json()) {
                output.printJson(view);
                return HourglassCli.EXIT_OK;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("name", view.name());
            fields.put("topic", view.topic());
            fields.put("cron", view.cron());
            fields.put("zone", view.zone());
            fields.put("misfire", view.misfirePolicy());
            fields.put("callback url", view.callbackUrl() == null ? "-" : view.callbackUrl());
            fields.put(
                    "max attempts",
                    view.maxAttempts() == null ? "default" : view.maxAttempts().toString());
            fields.put(
                    "lease", view.leaseMs() == null ? "default" : Output.duration(Duration.ofMillis(view.leaseMs())));
            fields.put("updated at", view.updatedAt());
            fields.put("last tick", view.lastTick() == null ? "-" : view.lastTick());
            fields.put("next", String.join(", ", view.nextFireTimes()));
            fields.put("payload", view.payload().toString());
            output.printFields(fields);
            return HourglassCli.EXIT_OK;
        }
    }

    @Command(
            name = "set",
            description = "Creates or replaces a schedule; it takes effect at its next tick. Setting the stored"
                    + " definition again changes nothing.")
    static final class Set extends NamedScheduleCommand {
        @Option(names = "--topic", paramLabel = "TOPIC", required = true, description = "the topic of its jobs")
        String topic;

        @Option(
                names = "--cron",
                paramLabel = "EXPR",
                required = true,
                description = "five fields (minute hour day-of-month month day-of-week) or six with seconds first,"
                        + " e.g. '0 3 * * *'")
        String cron;

        @Option(
                names = "--zone",
                paramLabel = "ZONE",
                defaultValue = "UTC",
                description = "the time zone of the cron fields, e.g. Europe/Berlin (default: ${DEFAULT-VALUE})")
        String zone;

        @Option(
                names = "--payload",
                paramLabel = "JSON",
                defaultValue = "null",
                description = "each job's payload, one JSON value (default: ${DEFAULT-VALUE})")
        String payload;

        @Option(
                names = "--callback-url",
                paramLabel = "URL",
                description = "POST each job to this URL instead of handing it to workers")
        URI callbackUrl;

        @Option(names = "--max-attempts", paramLabel = "N", description = "each job's deliveries allowed")
        Integer maxAttempts;

        @Option(
                names = "--lease",
                paramLabel = "DURATION",
                converter = Commands.DurationConverter.class,
                description = "each delivery's lease: 500ms, 10s, 5m, 2h or ISO-8601")
        Duration lease;

        @Option(
                names = "--misfire",
                paramLabel = "POLICY",
                defaultValue = "FIRE_ONCE",
                description =
                        "ticks missed by more than a minute: ${COMPLETION-CANDIDATES} (default:" + " ${DEFAULT-VALUE})")
        Schedule.MisfirePolicy misfire;

        @Override
        int run(Hourglass hourglass, Output output) {
            Schedule.Builder schedule = Schedule.builder(name, topic, cron)
                    .zone(zone)
                    .payload(Output.payloadArgument(payload))
                    .callbackUrl(callbackUrl)
                    .misfirePolicy(misfire);
            if (maxAttempts != null) {
                schedule.maxAttempts(maxAttempts);
            }
            if (lease != null) {
                schedule.lease(lease);
            }
            ScheduleInfo stored = hourglass.schedules().put(schedule.build());
            if (output.json()) {
                output.printJson(ScheduleView.of(stored));
                return HourglassCli.EXIT_OK;
            }
            output.println("schedule " + name + " of topic " + topic + ": next at "
                    + (stored.nextFireTimes().isEmpty()
                            ? "never"
                            : Output.time(stored.nextFireTimes().get(0))));
            return HourglassCli.EXIT_OK;
        }
    }

    @Command(name = "delete", description = "Deletes a schedule; jobs it created are left. Exit code 1 when none.")
    static final class Delete extends NamedScheduleCommand {
        @Override
        int run(Hourglass hourglass, Output output) {
            if (!hourglass.schedules().delete(name)) {
                throw notFound(hourglass, name);
            }
            if (output.json()) {
                output.printJson(Map.of("name", name, "deleted", true));
            } else {
                output.println("deleted schedule " + name);
            }
            return HourglassCli.EXIT_OK;
        }
    }
}
