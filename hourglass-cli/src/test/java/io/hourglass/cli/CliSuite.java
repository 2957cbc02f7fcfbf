package io.hourglass.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.testkit.HourglassFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every command of the command line against a real Redis, in table and JSON form, with its exit codes. The connection
 * reaches the command line through the environment ({@code HOURGLASS_*}, given to picocli's default provider) as an
 * operator's shell would give it; subclasses pick one Redis or a Redis Cluster and the shards.
 */
abstract class CliSuite {
    private Hourglass hourglass;
    private Map<String, String> environment;

    /** @return {@code HOURGLASS_REDIS} or {@code HOURGLASS_CLUSTER} for the test's Redis */
    abstract Map<String, String> redisEnvironment(HourglassFactory factory);

    private Hourglass start(HourglassFactory factory) {
        hourglass = factory.create();
        environment = new HashMap<>(redisEnvironment(factory));
        environment.put("HOURGLASS_NAMESPACE", factory.namespace());
        environment.put("HOURGLASS_SHARDS", "" + hourglass.shards());
        return hourglass;
    }

    private CliRun cli(String... args) {
        return CliRun.of(environment, args);
    }

    private CliRun ok(String... args) {
        CliRun run = cli(args);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return run;
    }

    private void schedule(String topic, String id, String payload, Duration delay) {
        hourglass.schedule(
                JobRequest.builder(topic).id(id).payload(payload).delay(delay).build());
    }

    /** A dead letter: one attempt allowed, claimed and nacked. */
    private void deadLetter(String topic, String id, String error) {
        hourglass.schedule(
                JobRequest.builder(topic).id(id).payload("{}").maxAttempts(1).build());
        Delivery d = claim(topic, id);
        assertThat(hourglass.nack(topic, id, d.receipt(), error, null)).isEqualTo(JobState.DEAD);
    }

    /** Claims ready jobs of the topic until the one with this id is among them; the others are handed back. */
    private Delivery claim(String topic, String id) {
        Delivery claimed = null;
        for (Delivery d : hourglass.reserve(topic, 100, Duration.ofMinutes(5))) {
            if (d.id().equals(id)) {
                claimed = d;
            } else {
                hourglass.reschedule(topic, d.id(), Duration.ZERO);
            }
        }
        if (claimed == null) {
            throw new AssertionError("job " + id + " was not ready");
        }
        return claimed;
    }

    private static List<String> lines(String text) {
        return text.lines().toList();
    }

    private static List<String> column(CliRun run, int index) {
        List<String> cells = new ArrayList<>();
        for (String line : lines(run.out()).subList(1, lines(run.out()).size())) {
            cells.add(line.split("\\s{2,}")[index]);
        }
        return cells;
    }

    @Test
    void topicsListsEveryTopicWithItsCounts(HourglassFactory factory) {
        start(factory);
        schedule("orders", "o-1", "1", Duration.ZERO);
        schedule("orders", "o-2", "2", Duration.ofHours(1));
        schedule("emails", "e-1", "3", Duration.ofHours(2));

        CliRun table = ok("topics");
        List<String> rows = lines(table.out());
        assertThat(rows.get(0).split("\\s+"))
                .containsExactly(
                        "TOPIC",
                        "SCHEDULED",
                        "READY",
                        "ACTIVE",
                        "DEAD",
                        "COMPLETED",
                        "PAUSED",
                        "LATENCY",
                        "NEXT",
                        "DUE");
        assertThat(rows).hasSize(3);
        assertThat(rows.get(1).split("\\s+")).startsWith("emails", "1", "0", "0", "0", "0", "no", "0ms");
        assertThat(rows.get(2).split("\\s+")).startsWith("orders", "1", "1", "0", "0", "0", "no");

        JsonNode json = ok("topics", "--json").json();
        assertThat(json).hasSize(2);
        JsonNode orders = json.get(1);
        assertThat(orders.get("topic").asText()).isEqualTo("orders");
        assertThat(orders.get("scheduled").asLong()).isEqualTo(1);
        assertThat(orders.get("ready").asLong()).isEqualTo(1);
        assertThat(orders.get("paused").asBoolean()).isFalse();
        assertThat(orders.get("latencyMs").asLong()).isGreaterThanOrEqualTo(0);
        Instant due = hourglass.get("orders", "o-2").orElseThrow().dueAt();
        assertThat(Instant.parse(orders.get("nextDueAt").asText())).isEqualTo(due.truncatedTo(ChronoUnit.MILLIS));
        assertThat(json.get(0).get("topic").asText()).isEqualTo("emails");
    }

    @Test
    void topicsOfAnEmptyNamespacePrintsOnlyTheHeader(HourglassFactory factory) {
        start(factory);
        assertThat(lines(ok("topics").out())).hasSize(1);
        assertThat(ok("topics", "--json").json()).isEmpty();
    }

    @Test
    void statsShowsOneTopicAndItsLastDay(HourglassFactory factory) {
        start(factory);
        schedule("orders", "o-1", "1", Duration.ZERO);
        schedule("orders", "o-2", "2", Duration.ZERO);
        schedule("orders", "o-3", "3", Duration.ofHours(1));
        Delivery acked = claim("orders", "o-1");
        hourglass.ack("orders", "o-1", acked.receipt());
        deadLetter("orders", "o-4", "boom");

        CliRun table = ok("stats", "orders");
        assertThat(table.out())
                .containsPattern("(?m)^topic +orders$")
                .containsPattern("(?m)^paused +no$")
                .containsPattern("(?m)^scheduled +1$")
                .containsPattern("(?m)^ready +1$")
                .containsPattern("(?m)^active +0$")
                .containsPattern("(?m)^dead +1$")
                .containsPattern("(?m)^processed \\(24 h\\) +1$")
                .containsPattern("(?m)^failed \\(24 h\\) +1$");

        JsonNode json = ok("stats", "orders", "--json").json();
        assertThat(json.get("scheduled").asLong()).isEqualTo(1);
        assertThat(json.get("ready").asLong()).isEqualTo(1);
        assertThat(json.get("dead").asLong()).isEqualTo(1);
        assertThat(json.get("processedLast24h").asLong()).isEqualTo(1);
        assertThat(json.get("failedLast24h").asLong()).isEqualTo(1);
        assertThat(json.get("history")).isNotEmpty();
        JsonNode minute = json.get("history").get(0);
        assertThat(Instant.parse(minute.get("minute").asText()))
                .isBefore(Instant.now().plusSeconds(60));
    }

    @Test
    void jobsListsOneStateAPageAtATime(HourglassFactory factory) {
        start(factory);
        for (int i = 1; i <= 3; i++) {
            schedule("orders", "o-" + i, "{\"order\":" + i + "}", Duration.ZERO);
        }
        schedule("orders", "later", "x", Duration.ofHours(1));

        CliRun first = ok("jobs", "orders", "--state", "ready", "--limit", "2", "--json");
        JsonNode page = first.json();
        assertThat(page.get("jobs")).hasSize(2);
        JsonNode job = page.get("jobs").get(0);
        assertThat(job.get("state").asText()).isEqualTo("READY");
        assertThat(job.get("attempt").asInt()).isZero();
        assertThat(job.get("maxAttempts").asInt()).isEqualTo(10);
        assertThat(job.get("payloadPreview").asText()).startsWith("{\"order\":");
        assertThat(job.get("payloadBytes").asInt()).isEqualTo(11);
        String cursor = page.get("nextCursor").asText();
        assertThat(cursor).isNotBlank();

        JsonNode second = ok("jobs", "orders", "--state", "READY", "--limit", "2", "--cursor", cursor, "--json")
                .json();
        assertThat(second.get("jobs")).hasSize(1);
        assertThat(second.get("nextCursor").isNull()).isTrue();
        List<String> ids = new ArrayList<>();
        page.get("jobs").forEach(j -> ids.add(j.get("id").asText()));
        second.get("jobs").forEach(j -> ids.add(j.get("id").asText()));
        assertThat(ids).containsExactlyInAnyOrder("o-1", "o-2", "o-3");

        CliRun table = ok("jobs", "orders", "--state", "ready", "--limit", "2");
        assertThat(lines(table.out()).get(0).split("\\s{2,}"))
                .containsExactly("ID", "DUE AT", "ATTEMPTS", "LAST ERROR", "PAYLOAD");
        assertThat(lines(table.out())).hasSize(3);
        assertThat(column(table, 2)).containsOnly("0/10");
        assertThat(table.err()).contains("more: --cursor ");

        CliRun scheduled = ok("jobs", "orders", "--state", "scheduled");
        assertThat(column(scheduled, 0)).containsExactly("later");
        assertThat(scheduled.err()).isEmpty();
    }

    @Test
    void jobsOfActiveJobsShowTheirLease(HourglassFactory factory) {
        start(factory);
        schedule("orders", "o-1", "1", Duration.ZERO);
        Delivery d = claim("orders", "o-1");

        CliRun table = ok("jobs", "orders", "--state", "active");
        assertThat(lines(table.out()).get(0).split("\\s{2,}"))
                .containsExactly("ID", "DUE AT", "ATTEMPTS", "LEASE UNTIL", "LAST ERROR", "PAYLOAD");
        assertThat(column(table, 0)).containsExactly("o-1");
        assertThat(column(table, 2)).containsExactly("1/10");
        assertThat(column(table, 3)).containsExactly(Output.time(d.leaseUntil()));

        JsonNode json = ok("jobs", "orders", "--state", "active", "--json").json();
        assertThat(json.get("jobs").get(0).get("leaseUntil").asText()).isEqualTo(Output.time(d.leaseUntil()));
    }

    @Test
    void getShowsOneJobWithItsPayload(HourglassFactory factory) {
        start(factory);
        schedule("orders", "o-1", "{\"orderId\":42}", Duration.ofMinutes(10));
        schedule("orders", "text", "plain words", Duration.ofMinutes(10));

        CliRun table = ok("get", "orders", "o-1");
        assertThat(table.out())
                .containsPattern("(?m)^id +o-1$")
                .containsPattern("(?m)^state +SCHEDULED$")
                .containsPattern("(?m)^attempts +0/10$")
                .containsPattern("(?m)^payload +\\{\"orderId\":42}$");

        JsonNode json = ok("get", "orders", "o-1", "--json").json();
        JobInfo job = hourglass.get("orders", "o-1").orElseThrow();
        assertThat(json.get("id").asText()).isEqualTo("o-1");
        assertThat(json.get("topic").asText()).isEqualTo("orders");
        assertThat(json.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(json.get("dueAt").asText()).isEqualTo(Output.time(job.dueAt()));
        assertThat(json.get("leaseMs").asLong()).isEqualTo(30_000);
        assertThat(json.get("backoff").asText()).isEqualTo(job.backoff().spec());
        assertThat(json.get("payload").get("orderId").asInt()).isEqualTo(42);
        assertThat(json.get("callbackUrl").isNull()).isTrue();

        assertThat(ok("get", "orders", "text", "--json").json().get("payload").asText())
                .isEqualTo("plain words");

        CliRun missing = cli("get", "orders", "nope");
        assertThat(missing.exitCode()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).contains("no job 'nope' in topic 'orders'");
        assertThat(cli("get", "orders", "nope", "--json").exitCode()).isEqualTo(1);
    }

    @Test
    void getShowsACompletedJobWithItsCompletionTimeAndResult(HourglassFactory factory) {
        start(factory);
        Hourglass retaining = factory.create(b -> b.completedRetention("orders", Duration.ofHours(1)));
        retaining.schedule(JobRequest.builder("orders").id("done").payload("{}").build());
        Delivery d = claim("orders", "done");
        retaining.ack("orders", "done", d.receipt(), "{\"invoice\":\"INV-7\"}".getBytes(StandardCharsets.UTF_8));

        CliRun table = ok("get", "orders", "done");
        assertThat(table.out())
                .containsPattern("(?m)^state +COMPLETED$")
                .containsPattern("(?m)^attempts +1/10$")
                .containsPattern("(?m)^completed at +\\d{4}-")
                .containsPattern("(?m)^result +\\{\"invoice\":\"INV-7\"}$");
        JsonNode json = ok("get", "orders", "done", "--json").json();
        assertThat(json.get("state").asText()).isEqualTo("COMPLETED");
        assertThat(json.get("completedAt").asText())
                .isEqualTo(Output.time(
                        retaining.get("orders", "done").orElseThrow().completedAt()));
        assertThat(json.get("result").get("invoice").asText()).isEqualTo("INV-7");

        assertThat(ok("stats", "orders").out()).containsPattern("(?m)^completed +1$");
        CliRun listed = ok("jobs", "orders", "--state", "COMPLETED");
        assertThat(lines(listed.out()).get(0).split("\\s{2,}"))
                .containsExactly("ID", "DUE AT", "ATTEMPTS", "COMPLETED AT", "LAST ERROR", "PAYLOAD");
        assertThat(column(listed, 0)).containsExactly("done");
        assertThat(column(listed, 3)).containsExactly(json.get("completedAt").asText());
        JsonNode page = ok("jobs", "orders", "--state", "COMPLETED", "--json").json();
        assertThat(page.get("jobs").get(0).get("id").asText()).isEqualTo("done");
        assertThat(page.get("jobs").get(0).get("completedAt").asText())
                .isEqualTo(json.get("completedAt").asText());
    }

    @Test
    void cancelDeletesAJobAndReportsAMissingOne(HourglassFactory factory) {
        start(factory);
        schedule("orders", "o-1", "1", Duration.ofMinutes(10));
        schedule("orders", "o-2", "2", Duration.ofMinutes(10));

        assertThat(ok("cancel", "orders", "o-1").out()).isEqualTo("cancelled job o-1 of topic orders\n");
        assertThat(hourglass.get("orders", "o-1")).isEmpty();
        JsonNode json = ok("cancel", "orders", "o-2", "--json").json();
        assertThat(json.get("outcome").asText()).isEqualTo("CANCELLED");
        assertThat(hourglass.get("orders", "o-2")).isEmpty();

        CliRun again = cli("cancel", "orders", "o-1");
        assertThat(again.exitCode()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
        assertThat(again.err()).contains("no job 'o-1'");
    }

    @Test
    void runMakesAScheduledJobReadyAndRefusesAnActiveOne(HourglassFactory factory) {
        start(factory);
        schedule("orders", "o-1", "1", Duration.ofHours(1));
        schedule("orders", "o-2", "2", Duration.ofHours(1));

        assertThat(ok("run", "orders", "o-1").out()).isEqualTo("job o-1 of topic orders is ready now\n");
        assertThat(hourglass.get("orders", "o-1").orElseThrow().state()).isEqualTo(JobState.READY);
        assertThat(ok("run", "orders", "o-1").out()).isEqualTo("job o-1 of topic orders was ready already\n");
        assertThat(ok("run", "orders", "o-2", "--json").json().get("outcome").asText())
                .isEqualTo("MADE_READY");
        assertThat(ok("run", "orders", "o-2", "--json").json().get("outcome").asText())
                .isEqualTo("ALREADY_READY");

        claim("orders", "o-1");
        CliRun active = cli("run", "orders", "o-1");
        assertThat(active.exitCode()).as(active.toString()).isEqualTo(HourglassCli.EXIT_REFUSED);
        assertThat(active.err()).contains("ACTIVE");
        assertThat(hourglass.get("orders", "o-1").orElseThrow().state()).isEqualTo(JobState.ACTIVE);

        deadLetter("orders", "gone", "boom");
        CliRun dead = cli("run", "orders", "gone");
        assertThat(dead.exitCode()).isEqualTo(HourglassCli.EXIT_REFUSED);
        assertThat(dead.err()).contains("dead letter");

        assertThat(cli("run", "orders", "nope").exitCode()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
    }

    @Test
    void deadListsDeadLettersWithTheirErrors(HourglassFactory factory) {
        start(factory);
        deadLetter("orders", "d-1", "card declined");
        deadLetter("orders", "d-2", "line one\nline two");
        schedule("orders", "alive", "1", Duration.ofHours(1));

        CliRun table = ok("dead", "orders");
        assertThat(lines(table.out()).get(0).split("\\s{2,}"))
                .containsExactly("ID", "DUE AT", "ATTEMPTS", "DIED AT", "LAST ERROR", "PAYLOAD");
        assertThat(column(table, 0)).containsExactly("d-1", "d-2");
        assertThat(column(table, 2)).containsOnly("1/1");
        assertThat(column(table, 4)).containsExactly("card declined", "line one line two");

        JsonNode json = ok("dead", "orders", "--json").json();
        assertThat(json.get("jobs")).hasSize(2);
        assertThat(json.get("jobs").get(0).get("lastError").asText()).isEqualTo("card declined");
        assertThat(json.get("jobs").get(0).get("diedAt").asText()).isNotBlank();
        assertThat(json.get("jobs").get(0).get("state").asText()).isEqualTo("DEAD");
    }

    @Test
    void requeuePutsDeadLettersBackByIdOrAll(HourglassFactory factory) {
        start(factory);
        deadLetter("orders", "d-1", "x");
        deadLetter("orders", "d-2", "x");
        deadLetter("orders", "d-3", "x");

        assertThat(ok("requeue", "orders", "d-1").out()).isEqualTo("requeued 1 dead letter of topic orders\n");
        assertThat(hourglass.get("orders", "d-1").orElseThrow().state()).isEqualTo(JobState.READY);

        CliRun partly = cli("requeue", "orders", "d-2", "nope", "--json");
        assertThat(partly.exitCode()).as(partly.toString()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
        assertThat(partly.json().get("count").asLong()).isEqualTo(1);
        assertThat(partly.err()).contains("1 of the 2 ids given are not dead letters");
        assertThat(hourglass.get("orders", "d-2").orElseThrow().state()).isEqualTo(JobState.READY);

        deadLetter("orders", "d-4", "x");
        JsonNode all = ok("requeue", "orders", "--all", "--json").json();
        assertThat(all.get("count").asLong()).isEqualTo(2);
        assertThat(all.get("action").asText()).isEqualTo("REQUEUED");
        assertThat(hourglass.inspector().topic("orders").dead()).isZero();

        assertThat(cli("requeue", "orders").exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(cli("requeue", "orders", "--all", "d-1").exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(cli("requeue", "unknown", "--all").exitCode()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
    }

    @Test
    void purgeDeletesTheJobsOfOneState(HourglassFactory factory) {
        start(factory);
        schedule("orders", "r-1", "1", Duration.ZERO);
        schedule("orders", "r-2", "2", Duration.ZERO);
        schedule("orders", "s-1", "3", Duration.ofHours(1));
        schedule("orders", "s-2", "4", Duration.ofHours(1));

        assertThat(ok("purge", "orders", "--state", "ready").out()).isEqualTo("purged 2 READY jobs of topic orders\n");
        assertThat(hourglass.get("orders", "r-1")).isEmpty();
        assertThat(hourglass.get("orders", "s-1")).isPresent();

        JsonNode json = ok("purge", "orders", "--state", "SCHEDULED", "--json").json();
        assertThat(json.get("count").asLong()).isEqualTo(2);
        assertThat(json.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(hourglass.get("orders", "s-1")).isEmpty();

        CliRun noState = cli("purge", "orders");
        assertThat(noState.exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(noState.err()).contains("--state");
    }

    @Test
    void pauseAndResumeATopic(HourglassFactory factory) {
        start(factory);
        schedule("orders", "o-1", "1", Duration.ZERO);

        assertThat(ok("pause", "orders").out()).isEqualTo("paused topic orders\n");
        assertThat(hourglass.inspector().topic("orders").paused()).isTrue();
        assertThat(hourglass.reserve("orders", 10, null)).isEmpty();
        assertThat(ok("topics", "--json").json().get(0).get("paused").asBoolean())
                .isTrue();

        JsonNode resumed = ok("resume", "orders", "--json").json();
        assertThat(resumed.get("paused").asBoolean()).isFalse();
        assertThat(hourglass.inspector().topic("orders").paused()).isFalse();
        assertThat(ok("pause", "orders", "--json").json().get("paused").asBoolean())
                .isTrue();
        assertThat(ok("resume", "orders").out()).isEqualTo("resumed topic orders\n");

        CliRun unknown = cli("pause", "typo");
        assertThat(unknown.exitCode()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
        assertThat(unknown.err()).contains("no topic 'typo'");
        assertThat(hourglass.inspector().topic("typo").paused()).isFalse();
    }

    @Test
    void scheduleCreatesAJob(HourglassFactory factory) {
        start(factory);
        Instant before = Instant.now();
        CliRun created = ok("schedule", "orders", "--delay", "10s", "--payload", "{ \"orderId\": 42 }", "--id", "o-1");
        assertThat(created.out()).startsWith("created job o-1 of topic orders: SCHEDULED, due at ");
        JobInfo job = hourglass.get("orders", "o-1").orElseThrow();
        assertThat(job.payloadAsString()).isEqualTo("{\"orderId\":42}");
        assertThat(job.dueAt()).isBetween(before.plusSeconds(9), Instant.now().plusSeconds(11));

        Instant at = Instant.parse("2030-01-02T03:04:05Z");
        JsonNode json = ok("schedule", "orders", "--at", "2030-01-02T04:04:05+01:00", "--payload", "\"hi\"", "--json")
                .json();
        assertThat(json.get("outcome").asText()).isEqualTo("CREATED");
        assertThat(json.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(Instant.parse(json.get("dueAt").asText())).isEqualTo(at);
        String id = json.get("id").asText();
        assertThat(hourglass.get("orders", id).orElseThrow().payloadAsString()).isEqualTo("\"hi\"");

        JsonNode now = ok("schedule", "orders", "--payload", "1", "--json").json();
        assertThat(now.get("state").asText()).isEqualTo("READY");
        ok("schedule", "orders", "--payload", "1", "--priority", "-3", "--id=-urgent");
        // An id that starts with '-' goes after "--", as the README shows; before it, it reads as an option.
        assertThat(ok("get", "orders", "--json", "--", "-urgent")
                        .json()
                        .get("priority")
                        .asInt())
                .isEqualTo(-3);

        CliRun taken = cli("schedule", "orders", "--payload", "2", "--id", "o-1");
        assertThat(taken.exitCode()).isEqualTo(HourglassCli.EXIT_REFUSED);
        assertThat(taken.err()).contains("o-1");
        assertThat(hourglass.get("orders", "o-1").orElseThrow().payloadAsString())
                .isEqualTo("{\"orderId\":42}");
        JsonNode kept = ok("schedule", "orders", "--payload", "2", "--id", "o-1", "--on-conflict", "keep", "--json")
                .json();
        assertThat(kept.get("outcome").asText()).isEqualTo("KEPT");
        JsonNode replaced = ok(
                        "schedule", "orders", "--payload", "3", "--id", "o-1", "--on-conflict", "replace", "--json")
                .json();
        assertThat(replaced.get("outcome").asText()).isEqualTo("REPLACED");
        assertThat(hourglass.get("orders", "o-1").orElseThrow().payloadAsString())
                .isEqualTo("3");
    }

    @Test
    void badInputIsAUsageErrorAndChangesNothing(HourglassFactory factory) {
        start(factory);
        assertUsageError(cli("schedule", "orders", "--payload", "not json"), "--payload");
        assertUsageError(cli("schedule", "orders", "--payload", "1", "--delay", "soon"), "--delay");
        assertUsageError(
                cli("schedule", "orders", "--payload", "1", "--delay", "1s", "--at", "2030-01-01T00:00:00Z"),
                "--delay or --at");
        assertUsageError(cli("schedule", "orders", "--payload", "1", "--at", "tomorrow"), "--at");
        assertUsageError(cli("schedule", "bad topic!", "--payload", "1"), "topic");
        assertUsageError(cli("schedule", "orders", "--payload", "1", "--id", "bad id"), "id");
        assertUsageError(cli("schedule", "orders"), "--payload");
        assertUsageError(cli("schedule", "orders", "--payload", "1", "--priority", "6"), "priority");
        assertThat(hourglass.topicExists("orders")).isFalse();

        schedule("orders", "o-1", "1", Duration.ZERO);
        assertUsageError(cli("jobs", "orders", "--state", "gone"), "--state");
        assertUsageError(cli("jobs", "orders", "--state", "ready", "--limit", "0"), "limit");
        assertUsageError(cli("jobs", "orders", "--state", "ready", "--cursor", "garbage"), "cursor");
        assertUsageError(cli("jobs", "orders"), "--state");
        assertUsageError(cli("topics", "--frobnicate"), "--frobnicate");
        assertUsageError(cli("frobnicate"), "frobnicate");
        assertUsageError(cli(), "name a command");
        assertThat(hourglass.get("orders", "o-1")).isPresent();
    }

    private static void assertUsageError(CliRun run, String named) {
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(run.err()).as(run.toString()).contains(named);
        assertThat(run.out()).as(run.toString()).isEmpty();
    }

    @Test
    void readsOfAnUnknownTopicAreNotFound(HourglassFactory factory) {
        start(factory);
        for (String[] args : List.of(
                new String[] {"stats", "nope"},
                new String[] {"jobs", "nope", "--state", "ready"},
                new String[] {"dead", "nope"},
                new String[] {"purge", "nope", "--state", "dead"},
                new String[] {"resume", "nope"})) {
            CliRun run = cli(args);
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
            assertThat(run.err()).contains("no topic 'nope' in namespace '" + factory.namespace() + "'");
        }
    }

    @Test
    void optionsWinOverTheEnvironment(HourglassFactory factory) {
        start(factory);
        schedule("orders", "o-1", "1", Duration.ZERO);
        Map<String, String> redisOnly = redisEnvironment(factory);

        environment = new HashMap<>(redisOnly);
        environment.put("HOURGLASS_NAMESPACE", "elsewhere");
        environment.put("HOURGLASS_SHARDS", "" + hourglass.shards());
        assertThat(ok("topics", "--json").json()).isEmpty();
        assertThat(ok("topics", "--namespace", factory.namespace(), "--json").json())
                .hasSize(1);
        assertThat(ok("--namespace", factory.namespace(), "topics", "--json").json())
                .hasSize(1);

        environment = new HashMap<>(redisOnly);
        environment.put("HOURGLASS_NAMESPACE", factory.namespace());
        environment.put("HOURGLASS_SHARDS", "" + hourglass.shards());
        environment.put("HOURGLASS_REDIS", "redis://127.0.0.1:1");
        environment.remove("HOURGLASS_CLUSTER");
        CliRun unreachable = cli("topics");
        assertThat(unreachable.exitCode()).isEqualTo(HourglassCli.EXIT_REDIS_UNAVAILABLE);
        assertThat(unreachable.err()).contains("Redis cannot be reached").contains("127.0.0.1:1");
        assertThat(unreachable.out()).isEmpty();
    }

    @Test
    void schedulesAreSetListedShownAndDeleted(HourglassFactory factory) {
        start(factory);
        CliRun set = ok(
                "schedules",
                "set",
                "nightly",
                "--topic",
                "reports",
                "--cron",
                "0 3 * * *",
                "--zone",
                "Europe/Berlin",
                "--payload",
                "{\"kind\": \"daily\"}",
                "--max-attempts",
                "3",
                "--misfire",
                "skip");
        assertThat(set.out()).startsWith("schedule nightly of topic reports: next at ");

        JsonNode shown = ok("schedules", "get", "nightly", "--json").json();
        assertThat(shown.get("topic").asText()).isEqualTo("reports");
        assertThat(shown.get("cron").asText()).isEqualTo("0 3 * * *");
        assertThat(shown.get("zone").asText()).isEqualTo("Europe/Berlin");
        assertThat(shown.get("payload").get("kind").asText()).isEqualTo("daily");
        assertThat(shown.get("maxAttempts").asInt()).isEqualTo(3);
        assertThat(shown.get("misfirePolicy").asText()).isEqualTo("skip");
        assertThat(shown.get("nextFireTimes")).hasSize(5);
        assertThat(hourglass.schedules().get("nightly").orElseThrow().schedule().topic())
                .isEqualTo("reports");

        List<String> table = lines(ok("schedules").out());
        assertThat(table.get(0)).startsWith("NAME").contains("CRON", "NEXT", "LAST TICK");
        assertThat(table.get(1)).startsWith("nightly").contains("reports", "0 3 * * *", "Europe/Berlin");
        assertThat(ok("schedules", "list", "--json").json()).hasSize(1);

        CliRun badCron = cli("schedules", "set", "bad", "--topic", "reports", "--cron", "every day");
        assertThat(badCron.exitCode()).as(badCron.toString()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(badCron.err()).contains("cron:");
        assertThat(hourglass.schedules().list()).hasSize(1);

        assertThat(ok("schedules", "delete", "nightly").out()).contains("deleted schedule nightly");
        assertThat(hourglass.schedules().list()).isEmpty();
        CliRun missing = cli("schedules", "get", "nightly");
        assertThat(missing.exitCode()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
        assertThat(cli("schedules", "delete", "nightly").exitCode()).isEqualTo(HourglassCli.EXIT_NOT_FOUND);
    }

    @Test
    void configShowsAndSetsATopicsFlowControlAndRefusesABadValue(HourglassFactory factory) {
        start(factory);
        int shards = hourglass.shards();
        assertThat(lines(ok("config", "orders").out()))
                .as("no limits")
                .anySatisfy(line -> assertThat(line).startsWith("orders").doesNotContainPattern("[0-9]"));

        JsonNode set = ok("config", "orders", "--rate", "25", "--max-concurrency", "" + 2 * shards, "--json")
                .json();
        assertThat(set.get("ratePerSecond").asDouble()).isEqualTo(25.0);
        assertThat(set.get("burst").asInt()).isEqualTo(Math.max(25, shards));
        assertThat(set.get("maxConcurrency").asInt()).isEqualTo(2 * shards);
        assertThat(hourglass.inspector().topicConfig("orders").maxConcurrency()).isEqualTo(2 * shards);

        JsonNode capOnly =
                ok("config", "orders", "--max-concurrency", "0", "--json").json();
        assertThat(capOnly.get("ratePerSecond").asDouble()).as("kept").isEqualTo(25.0);
        assertThat(capOnly.get("maxConcurrency").asInt()).isZero();

        CliRun bad = cli("config", "orders", "--max-concurrency", "-1");
        assertThat(bad.exitCode()).isEqualTo(HourglassCli.EXIT_USAGE);
        assertThat(bad.err()).contains("maxConcurrency:");
        assertThat(hourglass.inspector().topicConfig("orders").ratePerSecond()).isEqualTo(25.0);
    }
}
