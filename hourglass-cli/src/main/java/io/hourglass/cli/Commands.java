package io.hourglass.cli;

import static io.hourglass.cli.Output.row;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.HistoryMinute;
import io.hourglass.Hourglass;
import io.hourglass.Inspector;
import io.hourglass.JobInfo;
import io.hourglass.JobPage;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.OnConflict;
import io.hourglass.RunNowOutcome;
import io.hourglass.ScheduleResult;
import io.hourglass.TopicOverview;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** The subcommands of {@link HourglassCli}, each a thin layer over one or two calls of the core's API. */
final class Commands {
    private Commands() {}

    /** Thrown when the topic or job named does not exist; exits with {@link HourglassCli#EXIT_NOT_FOUND}. */
    static final class NotFoundException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotFoundException(String message) {
            super(message);
        }
    }

    /** Thrown when the job's state refuses the action; exits with {@link HourglassCli#EXIT_REFUSED}. */
    static final class RefusedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RefusedException(String message) {
            super(message);
        }
    }

    /** Connects, runs the command and closes the connection; its result is the exit code. */
    abstract static class HourglassCommand implements Callable<Integer> {
        @ParentCommand
        HourglassCli root;

        @Spec
        CommandSpec spec;

        @Override
        public final Integer call() {
            Output output = new Output(spec.commandLine().getOut(), root.json);
            try (Hourglass hourglass = root.connect()) {
                return run(hourglass, output);
            }
        }

        /** @return the exit code */
        abstract int run(Hourglass hourglass, Output output);

        /** A usage error found after parsing; handled like one found while parsing (exit code 2). */
        CommandLine.ParameterException usage(String message) {
            return new CommandLine.ParameterException(spec.commandLine(), message);
        }

        /** Operator actions on a topic nobody scheduled into are most likely a typo: refuse them. */
        void requireTopic(Hourglass hourglass, String topic) {
            if (!hourglass.topicExists(topic)) {
                throw new NotFoundException("no topic '" + topic + "' in namespace '" + hourglass.namespace()
                        + "' (a topic exists once a job was scheduled into it)");
            }
        }

        /** Errors and hints that are not the command's output go to stderr, so stdout stays parseable. */
        void note(String line) {
            spec.commandLine().getErr().println(line);
        }
    }

    /** A topic's row in {@code topics} and the head of {@code stats}. */
    record TopicView(
            String topic,
            long scheduled,
            long ready,
            long active,
            long dead,
            boolean paused,
            long latencyMs,
            String nextDueAt,
            long completed) {
        static TopicView of(TopicOverview t) {
            return new TopicView(
                    t.topic(),
                    t.scheduled(),
                    t.ready(),
                    t.active(),
                    t.dead(),
                    t.paused(),
                    t.latency().toMillis(),
                    Output.time(t.nextDueAt()),
                    t.completed());
        }
    }

    @Command(name = "topics", description = "Lists the namespace's topics with their jobs in each state.")
    static final class Topics extends HourglassCommand {
        @Override
        int run(Hourglass hourglass, Output output) {
            List<TopicOverview> topics = hourglass.inspector().topics();
            if (output.json()) {
                output.printJson(topics.stream().map(TopicView::of).toList());
                return HourglassCli.EXIT_OK;
            }
            List<List<String>> rows = new ArrayList<>();
            for (TopicOverview t : topics) {
                rows.add(row(
                        t.topic(),
                        "" + t.scheduled(),
                        "" + t.ready(),
                        "" + t.active(),
                        "" + t.dead(),
                        "" + t.completed(),
                        t.paused() ? "yes" : "no",
                        Output.duration(t.latency()),
                        Output.timeCell(t.nextDueAt())));
            }
            output.printTable(
                    row("TOPIC", "SCHEDULED", "READY", "ACTIVE", "DEAD", "COMPLETED", "PAUSED", "LATENCY", "NEXT DUE"),
                    rows);
            return HourglassCli.EXIT_OK;
        }
    }

    /** {@code stats} in JSON: the overview, the last 24 hours' totals and their minutes. */
    record StatsView(
            String topic,
            long scheduled,
            long ready,
            long active,
            long dead,
            boolean paused,
            long latencyMs,
            String nextDueAt,
            long processedLast24h,
            long failedLast24h,
            List<MinuteView> history,
            long completed) {}

    /** One minute of {@code stats}' history. */
    record MinuteView(String minute, long processed, long failed) {}

    @Command(
            name = "stats",
            description = "Shows one topic: jobs in each state, paused or not, latency, next due time, and the jobs"
                    + " processed and failed over the last 24 hours (per minute in JSON).")
    static final class Stats extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic")
        String topic;

        @Override
        int run(Hourglass hourglass, Output output) {
            requireTopic(hourglass, topic);
            Inspector inspector = hourglass.inspector();
            TopicOverview t = inspector.topic(topic);
            List<HistoryMinute> history = inspector.history(topic);
            long processed =
                    history.stream().mapToLong(HistoryMinute::processed).sum();
            long failed = history.stream().mapToLong(HistoryMinute::failed).sum();
            if (output.json()) {
                output.printJson(new StatsView(
                        t.topic(),
                        t.scheduled(),
                        t.ready(),
                        t.active(),
                        t.dead(),
                        t.paused(),
                        t.latency().toMillis(),
                        Output.time(t.nextDueAt()),
                        processed,
                        failed,
                        history.stream()
                                .map(m -> new MinuteView(Output.time(m.minute()), m.processed(), m.failed()))
                                .toList(),
                        t.completed()));
                return HourglassCli.EXIT_OK;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("topic", t.topic());
            fields.put("paused", t.paused() ? "yes" : "no");
            fields.put("scheduled", "" + t.scheduled());
            fields.put("ready", "" + t.ready());
            fields.put("active", "" + t.active());
            fields.put("dead", "" + t.dead());
            fields.put("completed", "" + t.completed());
            fields.put("latency", Output.duration(t.latency()));
            fields.put("next due", Output.timeCell(t.nextDueAt()));
            fields.put("processed (24 h)", "" + processed);
            fields.put("failed (24 h)", "" + failed);
            output.printFields(fields);
            return HourglassCli.EXIT_OK;
        }
    }

    /** One job of a page in JSON. */
    record JobSummaryView(
            String id,
            JobState state,
            String dueAt,
            int attempt,
            int maxAttempts,
            String lastError,
            String leaseUntil,
            String diedAt,
            int payloadBytes,
            String payloadPreview,
            String completedAt) {
        static JobSummaryView of(JobSummary j) {
            return new JobSummaryView(
                    j.id(),
                    j.state(),
                    Output.time(j.dueAt()),
                    j.attempt(),
                    j.maxAttempts(),
                    j.lastError(),
                    Output.time(j.leaseUntil()),
                    Output.time(j.diedAt()),
                    j.payloadBytes(),
                    j.payloadPreviewText(),
                    Output.time(j.completedAt()));
        }
    }

    /** A page of jobs in JSON. */
    record JobPageView(List<JobSummaryView> jobs, String nextCursor) {}

    /** Lists one page of a topic's jobs in one state: the shared body of {@code jobs} and {@code dead}. */
    abstract static class ListingCommand extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic")
        String topic;

        @Mixin
        PageOptions paging;

        int list(Hourglass hourglass, Output output, JobState state) {
            requireTopic(hourglass, topic);
            JobPage page = hourglass.inspector().jobs(topic, state, paging.cursor, paging.limit);
            if (output.json()) {
                output.printJson(new JobPageView(
                        page.jobs().stream().map(JobSummaryView::of).toList(), page.nextCursor()));
                return HourglassCli.EXIT_OK;
            }
            boolean active = state == JobState.ACTIVE;
            boolean dead = state == JobState.DEAD;
            boolean completed = state == JobState.COMPLETED;
            List<String> header = new ArrayList<>(row("ID", "DUE AT", "ATTEMPTS"));
            if (active || dead) {
                header.add(active ? "LEASE UNTIL" : "DIED AT");
            }
            if (completed) {
                header.add("COMPLETED AT");
            }
            header.addAll(row("LAST ERROR", "PAYLOAD"));
            List<List<String>> rows = new ArrayList<>();
            for (JobSummary j : page.jobs()) {
                List<String> cells =
                        new ArrayList<>(row(j.id(), Output.timeCell(j.dueAt()), j.attempt() + "/" + j.maxAttempts()));
                if (active || dead) {
                    cells.add(Output.timeCell(active ? j.leaseUntil() : j.diedAt()));
                }
                if (completed) {
                    cells.add(Output.timeCell(j.completedAt()));
                }
                String preview = j.payloadPreviewText() == null
                        ? "(" + j.payloadBytes() + " bytes, not UTF-8)"
                        : Output.textCell(j.payloadPreviewText());
                cells.addAll(row(Output.textCell(j.lastError()), preview));
                rows.add(cells);
            }
            output.printTable(header, rows);
            if (page.nextCursor() != null) {
                note("more: --cursor " + page.nextCursor());
            }
            return HourglassCli.EXIT_OK;
        }
    }

    @Command(
            name = "jobs",
            description = "Lists a topic's jobs in one state, by due time (by lease deadline when ACTIVE, by time of"
                    + " death when DEAD, by the end of their retention when COMPLETED), a page at a time.")
    static final class Jobs extends ListingCommand {
        @Option(
                names = "--state",
                paramLabel = "STATE",
                required = true,
                completionCandidates = JobStates.class,
                description = "the state to list: ${COMPLETION-CANDIDATES}")
        JobState state;

        @Override
        int run(Hourglass hourglass, Output output) {
            return list(hourglass, output, state);
        }
    }

    @Command(
            name = "dead",
            description = "Lists a topic's dead letters, oldest death first, with their last errors, a page at a time.")
    static final class Dead extends ListingCommand {
        @Override
        int run(Hourglass hourglass, Output output) {
            return list(hourglass, output, JobState.DEAD);
        }
    }

    /** The states {@code jobs} lists: every state, retained COMPLETED jobs included. */
    static final class JobStates implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(JobState.values())
                    .map(JobState::name)
                    .iterator();
        }
    }

    /** The states {@code purge} takes: retained COMPLETED jobs are listed, not purged. */
    static final class ListedStates implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return List.of("SCHEDULED", "READY", "ACTIVE", "DEAD").iterator();
        }
    }

    /** {@code get} in JSON. */
    record JobView(
            String id,
            String topic,
            JobState state,
            String dueAt,
            int attempt,
            int maxAttempts,
            String backoff,
            long leaseMs,
            String callbackUrl,
            String lastError,
            String leaseUntil,
            JsonNode payload,
            // Only for a COMPLETED job (kept after its ack), so other jobs' JSON is as it was.
            @JsonInclude(JsonInclude.Include.NON_NULL) String completedAt,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode result,
            int priority) {
        static JobView of(JobInfo j) {
            return new JobView(
                    j.id(),
                    j.topic(),
                    j.state(),
                    Output.time(j.dueAt()),
                    j.attempt(),
                    j.maxAttempts(),
                    j.backoff().spec(),
                    j.lease().toMillis(),
                    j.callbackUrl() == null ? null : j.callbackUrl().toString(),
                    j.lastError(),
                    Output.time(j.leaseUntil()),
                    Output.payload(j.payload()),
                    Output.time(j.completedAt()),
                    j.result() == null ? null : Output.payload(j.result()),
                    j.priority());
        }
    }

    @Command(name = "get", description = "Shows one job with its whole payload.")
    static final class Get extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the job's topic")
        String topic;

        @Parameters(index = "1", paramLabel = "ID", description = "the job's id")
        String id;

        @Override
        int run(Hourglass hourglass, Output output) {
            JobInfo job = hourglass.get(topic, id).orElseThrow(() -> noJob(topic, id));
            JobView view = JobView.of(job);
            if (output.json()) {
                output.printJson(view);
                return HourglassCli.EXIT_OK;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("id", view.id());
            fields.put("topic", view.topic());
            fields.put("state", view.state().name());
            fields.put("due at", view.dueAt());
            fields.put("attempts", view.attempt() + "/" + view.maxAttempts());
            fields.put("priority", String.valueOf(view.priority()));
            fields.put("lease until", Output.timeCell(job.leaseUntil()));
            fields.put("lease", Output.duration(job.lease()));
            fields.put("backoff", view.backoff());
            fields.put("callback", view.callbackUrl() == null ? "-" : view.callbackUrl());
            fields.put("last error", view.lastError() == null ? "-" : view.lastError());
            fields.put(
                    "payload",
                    view.payload().isTextual()
                            ? view.payload().asText()
                            : view.payload().toString());
            if (view.completedAt() != null) {
                fields.put("completed at", view.completedAt());
                fields.put(
                        "result",
                        view.result() == null
                                ? "-"
                                : view.result().isTextual()
                                        ? view.result().asText()
                                        : view.result().toString());
            }
            output.printFields(fields);
            return HourglassCli.EXIT_OK;
        }
    }

    static NotFoundException noJob(String topic, String id) {
        return new NotFoundException("no job '" + id + "' in topic '" + topic + "'");
    }

    /** What an action on one job did, in JSON. */
    record JobActionView(String topic, String id, String outcome) {}

    @Command(
            name = "cancel",
            description =
                    "Deletes a job that is not finished, in any state (a delivery in progress loses its receipt).")
    static final class Cancel extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the job's topic")
        String topic;

        @Parameters(index = "1", paramLabel = "ID", description = "the job's id")
        String id;

        @Override
        int run(Hourglass hourglass, Output output) {
            if (!hourglass.cancel(topic, id)) {
                throw noJob(topic, id);
            }
            if (output.json()) {
                output.printJson(new JobActionView(topic, id, "CANCELLED"));
            } else {
                output.println("cancelled job " + id + " of topic " + topic);
            }
            return HourglassCli.EXIT_OK;
        }
    }

    @Command(
            name = "run",
            description = "Makes a SCHEDULED job due now (by the Redis server's clock) and wakes the workers;"
                    + " a READY job stays as it is. Refuses ACTIVE jobs and dead letters (exit code 4).")
    static final class Run extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the job's topic")
        String topic;

        @Parameters(index = "1", paramLabel = "ID", description = "the job's id")
        String id;

        @Override
        int run(Hourglass hourglass, Output output) {
            RunNowOutcome outcome = hourglass.inspector().runNow(topic, id);
            switch (outcome) {
                case NOT_FOUND:
                    throw noJob(topic, id);
                case ACTIVE:
                    throw new RefusedException("job '" + id + "' of topic '" + topic
                            + "' is ACTIVE (leased to a worker): nothing changed");
                case DEAD:
                    throw new RefusedException("job '" + id + "' of topic '" + topic
                            + "' is a dead letter: requeue it instead (hourglass requeue " + topic + " " + id + ")");
                default:
                    break;
            }
            if (output.json()) {
                output.printJson(new JobActionView(topic, id, outcome.name()));
            } else if (outcome == RunNowOutcome.MADE_READY) {
                output.println("job " + id + " of topic " + topic + " is ready now");
            } else {
                output.println("job " + id + " of topic " + topic + " was ready already");
            }
            return HourglassCli.EXIT_OK;
        }
    }

    /** How many jobs a bulk action touched, in JSON. */
    record CountView(String topic, String action, JobState state, long count) {}

    @Command(
            name = "requeue",
            description = "Puts dead letters back to READY with their attempts reset: every one (--all) or the ids"
                    + " given. Exit code 1 when an id given is not a dead letter of the topic.")
    static final class Requeue extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic")
        String topic;

        @Parameters(index = "1..*", paramLabel = "ID", description = "ids of dead letters to requeue")
        List<String> ids;

        @Option(names = "--all", description = "requeue every dead letter of the topic")
        boolean all;

        @Override
        int run(Hourglass hourglass, Output output) {
            boolean someIds = ids != null && !ids.isEmpty();
            if (all == someIds) {
                throw usage("requeue: give --all or one or more ids (not both)");
            }
            requireTopic(hourglass, topic);
            Set<String> distinct = someIds ? new LinkedHashSet<>(ids) : Set.of();
            long requeued = all
                    ? hourglass.inspector().requeueAllDead(topic)
                    : hourglass.inspector().requeueDead(topic, distinct);
            if (output.json()) {
                output.printJson(new CountView(topic, "REQUEUED", JobState.DEAD, requeued));
            } else {
                output.println(
                        "requeued " + requeued + " dead letter" + (requeued == 1 ? "" : "s") + " of topic " + topic);
            }
            if (someIds && requeued < distinct.size()) {
                note("hourglass: " + (distinct.size() - requeued) + " of the " + distinct.size()
                        + " ids given are not dead letters of topic '" + topic + "'");
                return HourglassCli.EXIT_NOT_FOUND;
            }
            return HourglassCli.EXIT_OK;
        }
    }

    @Command(
            name = "purge",
            description = "Deletes every job of a topic in one state. Purging ACTIVE ends the deliveries in"
                    + " progress: their acks are refused.")
    static final class Purge extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic")
        String topic;

        @Option(
                names = "--state",
                paramLabel = "STATE",
                required = true,
                completionCandidates = ListedStates.class,
                description = "the state to purge: ${COMPLETION-CANDIDATES}")
        JobState state;

        @Override
        int run(Hourglass hourglass, Output output) {
            requireTopic(hourglass, topic);
            long purged = hourglass.inspector().purge(topic, state);
            if (output.json()) {
                output.printJson(new CountView(topic, "PURGED", state, purged));
            } else {
                output.println(
                        "purged " + purged + " " + state + " job" + (purged == 1 ? "" : "s") + " of topic " + topic);
            }
            return HourglassCli.EXIT_OK;
        }
    }

    /** A topic's pause state after {@code pause} or {@code resume}, in JSON. */
    record PauseView(String topic, boolean paused) {}

    @Command(
            name = "pause",
            description = "Pauses a topic: no worker, callback dispatcher or pull reservation of any process is given"
                    + " its jobs until it is resumed. Scheduling goes on; the pause is kept in Redis.")
    static final class Pause extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic")
        String topic;

        @Override
        int run(Hourglass hourglass, Output output) {
            requireTopic(hourglass, topic);
            return setPaused(hourglass, output, topic, true);
        }
    }

    @Command(name = "resume", description = "Resumes a paused topic and wakes its workers in every process.")
    static final class Resume extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic")
        String topic;

        @Override
        int run(Hourglass hourglass, Output output) {
            requireTopic(hourglass, topic);
            return setPaused(hourglass, output, topic, false);
        }
    }

    private static int setPaused(Hourglass hourglass, Output output, String topic, boolean paused) {
        if (paused) {
            hourglass.inspector().pause(topic);
        } else {
            hourglass.inspector().resume(topic);
        }
        if (output.json()) {
            output.printJson(new PauseView(topic, paused));
        } else {
            output.println((paused ? "paused" : "resumed") + " topic " + topic);
        }
        return HourglassCli.EXIT_OK;
    }

    /** {@code schedule} in JSON. */
    record ScheduledView(String id, String topic, JobState state, String dueAt, ScheduleResult.Outcome outcome) {}

    @Command(
            name = "schedule",
            description = "Schedules a job for the namespace's workers, due after --delay (default: now) or at --at."
                    + " Exit code 4 when --id is taken (unless --on-conflict replace or keep).")
    static final class Schedule extends HourglassCommand {
        @Parameters(index = "0", paramLabel = "TOPIC", description = "the topic")
        String topic;

        @Option(
                names = "--payload",
                paramLabel = "JSON",
                required = true,
                description = "the payload, one JSON value (stored as its JSON text, as the HTTP API stores it)")
        String payload;

        @Option(
                names = "--delay",
                paramLabel = "DURATION",
                converter = DurationConverter.class,
                description = "due this long from now by the Redis server's clock: 500ms, 10s, 5m, 2h, 1d or ISO-8601"
                        + " (PT10S)")
        Duration delay;

        @Option(
                names = "--at",
                paramLabel = "TIME",
                description = "due at this ISO-8601 time, e.g. 2026-11-26T09:00:00Z or 2026-11-26T10:00:00+01:00")
        Instant at;

        @Option(names = "--id", paramLabel = "ID", description = "the job's id (default: a generated one)")
        String id;

        @Option(
                names = "--on-conflict",
                paramLabel = "WHAT",
                defaultValue = "REJECT",
                description = "when --id is taken: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
        OnConflict onConflict;

        @Option(
                names = "--priority",
                paramLabel = "N",
                description = "-5 to 5, higher first among the topic's due jobs (default: 0)")
        Integer priority;

        @Override
        int run(Hourglass hourglass, Output output) {
            if (delay != null && at != null) {
                throw usage("schedule: give --delay or --at, not both");
            }
            JobRequest.Builder request = JobRequest.builder(topic)
                    .id(id)
                    .payload(Output.payloadArgument(payload))
                    .onConflict(onConflict);
            if (at != null) {
                request.runAt(at);
            } else if (delay != null) {
                request.delay(delay);
            }
            if (priority != null) {
                request.priority(priority);
            }
            ScheduleResult result = hourglass.schedule(request.build());
            if (output.json()) {
                output.printJson(new ScheduledView(
                        result.id(), result.topic(), result.state(), Output.time(result.dueAt()), result.outcome()));
                return HourglassCli.EXIT_OK;
            }
            output.println(result.outcome().name().toLowerCase(Locale.ROOT) + " job " + result.id() + " of topic "
                    + result.topic() + ": " + result.state() + ", due at " + Output.time(result.dueAt()));
            return HourglassCli.EXIT_OK;
        }
    }

    /** Reads {@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h}, {@code 1d} and ISO-8601 durations. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        private static final Pattern SHORT = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

        @Override
        public Duration convert(String value) {
            Matcher m = SHORT.matcher(value.trim());
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            }
            try {
                Duration d = Duration.parse(value.trim());
                if (!d.isNegative()) {
                    return d;
                }
            } catch (java.time.format.DateTimeParseException e) {
                // neither form: the message below names both
            }
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration: give e.g. 500ms, 10s, 5m, 2h, 1d or PT10S");
        }
    }
}
