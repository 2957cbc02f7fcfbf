package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The operators' endpoints over real HTTP and a real Redis, on a server whose topics have 4 shards (so that listings
 * merge the shards' pages): topic overviews, pause and resume, run now, bulk requeue and delete of dead letters, purge,
 * paged listings, per-minute history, and a 400 naming the field, with nothing changed, for each bad input.
 */
// The callback receiver of the pause test listens on 127.0.0.1, which callbacks may reach only when allowed.
@ServerSettings({"--hourglass.insecure=true", "--hourglass.shards=4", "--hourglass.callback-allow=127.0.0.1"})
class AdminApiIntegrationTests extends ServerTestSupport {
    private static final Set<String> TOPIC_FIELDS = Set.of(
            "topic",
            "scheduled",
            "ready",
            "active",
            "dead",
            "paused",
            "latencyMs",
            "nextDueAt",
            "deadLettersTrimmed",
            "completed");
    private static final Set<String> JOB_SUMMARY_FIELDS = Set.of(
            "id",
            "state",
            "dueAt",
            "attempt",
            "maxAttempts",
            "lastError",
            "leaseUntil",
            "diedAt",
            "payloadBytes",
            "payloadPreview",
            "payloadPreviewEncoding",
            "priority",
            "completedAt");

    private static Api.Response schedule(String t, Object... fields) {
        var created = api.post("/v1/topics/" + t + "/jobs", json(fields));
        assertThat(created.status()).as(created.raw().body()).isEqualTo(201);
        return created;
    }

    private static JsonNode reserve(String t, int max, int waitMs) {
        var reserved = api.post("/v1/topics/" + t + "/reservations", json("max", max, "waitMs", waitMs));
        assertThat(reserved.status()).as(reserved.raw().body()).isEqualTo(200);
        return reserved.body();
    }

    /** Schedules a job with one attempt, reserves it and nacks it, so that it is dead. */
    private static void killJob(String t, String id) {
        schedule(t, "id", id, "payload", id, "maxAttempts", 1);
        JsonNode delivery = reserve(t, 1, 2000).get(0);
        assertThat(delivery.get("id").asText()).isEqualTo(id);
        assertThat(api.post(
                                "/v1/topics/" + t + "/jobs/" + id + "/nack",
                                json("receipt", delivery.get("receipt").asText(), "error", "failed " + id))
                        .status())
                .isEqualTo(204);
    }

    private static JsonNode topicOf(String t) {
        var answer = api.get("/v1/topics/" + t);
        assertThat(answer.status()).as(answer.raw().body()).isEqualTo(200);
        return answer.body();
    }

    private static String stateOf(String t, String id) {
        var job = api.get("/v1/topics/" + t + "/jobs/" + id);
        return job.status() == 404 ? "GONE" : job.body().get("state").asText();
    }

    private static Set<String> fieldsOf(JsonNode node) {
        Set<String> names = new HashSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Reads every page of a listing, checking each page's size, and returns the jobs in the order read. */
    private static List<JsonNode> listAll(String t, String state, int limit) {
        List<JsonNode> all = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < 100; pages++) {
            var page = api.get("/v1/topics/" + t + "/jobs?state=" + state + "&limit=" + limit
                    + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.raw().body()).isEqualTo(200);
            assertThat(fieldsOf(page.body())).containsExactlyInAnyOrder("jobs", "nextCursor");
            assertThat(page.body().get("jobs").size()).isLessThanOrEqualTo(limit);
            page.body().get("jobs").forEach(all::add);
            if (page.body().get("nextCursor").isNull()) {
                return all;
            }
            cursor = page.body().get("nextCursor").asText();
        }
        throw new AssertionError("the listing did not end within 100 pages");
    }

    @Test
    void aTopicShowsItsCountsPauseLatencyAndNextDueTime() throws Exception {
        String t = topic();
        Instant later = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS);
        schedule(t, "id", "later", "runAt", later.toString(), "payload", 1);
        schedule(t, "id", "last", "runAt", later.plusSeconds(60).toString(), "payload", 1);
        schedule(t, "id", "now", "payload", 1);
        Thread.sleep(300);

        JsonNode topic = topicOf(t);

        assertThat(fieldsOf(topic)).isEqualTo(TOPIC_FIELDS);
        assertThat(topic.get("topic").asText()).isEqualTo(t);
        assertThat(topic.get("scheduled").asLong()).isEqualTo(2);
        assertThat(topic.get("ready").asLong()).isEqualTo(1);
        assertThat(topic.get("active").asLong()).isZero();
        assertThat(topic.get("dead").asLong()).isZero();
        assertThat(topic.get("deadLettersTrimmed").asLong()).isZero();
        assertThat(topic.get("paused").asBoolean()).isFalse();
        assertThat(topic.get("latencyMs").asLong()).isBetween(250L, 60_000L);
        assertThat(Instant.parse(topic.get("nextDueAt").asText())).isEqualTo(later);

        JsonNode listed = null;
        for (JsonNode n : api.get("/v1/topics").body()) {
            if (n.get("topic").asText().equals(t)) {
                listed = n;
            }
        }
        assertThat(listed).isNotNull();
        assertThat(fieldsOf(listed)).isEqualTo(TOPIC_FIELDS);
        assertThat(listed.get("scheduled").asLong()).isEqualTo(2);
        List<String> names = api.get("/v1/topics").body().findValuesAsText("topic");
        assertThat(names).isSortedAccordingTo(Comparator.naturalOrder());

        JsonNode unused = topicOf(topic());
        assertThat(fieldsOf(unused)).isEqualTo(TOPIC_FIELDS);
        assertThat(unused.get("scheduled").asLong()
                        + unused.get("ready").asLong()
                        + unused.get("active").asLong()
                        + unused.get("dead").asLong()
                        + unused.get("latencyMs").asLong())
                .isZero();
        assertThat(unused.get("paused").asBoolean()).isFalse();
        assertThat(unused.get("nextDueAt").isNull()).isTrue();
    }

    @Test
    void aPauseStopsPullReservationsUntilTheResumeWhichWakesAWaitingOne() throws Exception {
        String t = topic();
        schedule(t, "id", "due", "payload", 1);

        var paused = api.post("/v1/topics/" + t + "/pause", null, null);
        assertThat(paused.status()).as(paused.raw().body()).isEqualTo(200);
        assertThat(fieldsOf(paused.body())).isEqualTo(TOPIC_FIELDS);
        assertThat(paused.body().get("paused").asBoolean()).isTrue();
        assertThat(paused.body().get("ready").asLong()).isEqualTo(1);
        assertThat(api.post("/v1/topics/" + t + "/pause", null, null).status()).isEqualTo(200);

        assertThat(reserve(t, 1, 1000)).isEmpty();
        assertThat(topicOf(t).get("paused").asBoolean()).isTrue();
        assertThat(stateOf(t, "due")).isEqualTo("READY");

        var waiting = api.postAsync("/v1/topics/" + t + "/reservations", json("max", 1, "waitMs", 20_000));
        Thread.sleep(500);
        assertThat(waiting).isNotDone();
        long resumedAt = System.nanoTime();
        var resumed = api.post("/v1/topics/" + t + "/resume", null, null);
        assertThat(resumed.status()).as(resumed.raw().body()).isEqualTo(200);
        assertThat(resumed.body().get("paused").asBoolean()).isFalse();

        var delivered = waiting.get(10, TimeUnit.SECONDS);
        assertThat(delivered.body()).hasSize(1);
        assertThat(delivered.body().get(0).get("id").asText()).isEqualTo("due");
        assertThat(Duration.ofNanos(System.nanoTime() - resumedAt)).isLessThan(Duration.ofSeconds(5));
        assertThat(api.post("/v1/topics/" + t + "/resume", null, null).status()).isEqualTo(200);
    }

    @Test
    void aPauseStopsCallbackDeliveryUntilTheResume() throws Exception {
        String t = topic();
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            assertThat(api.post("/v1/topics/" + t + "/pause", null, null).status())
                    .isEqualTo(200);
            schedule(t, "id", "cb", "payload", 1, "callbackUrl", receiver.url("/hook"));

            // The callback lane claims on wake signals and on its 1 s sweep: two sweeps pass without a call.
            Thread.sleep(2500);
            assertThat(receiver.calls()).isEmpty();
            assertThat(stateOf(t, "cb")).isEqualTo("READY");

            assertThat(api.post("/v1/topics/" + t + "/resume", null, null).status())
                    .isEqualTo(200);
            await().atMost(10, TimeUnit.SECONDS)
                    .until(() -> !receiver.callsOf("cb").isEmpty());
            await().atMost(10, TimeUnit.SECONDS).until(() -> stateOf(t, "cb").equals("GONE"));
        }
    }

    @Test
    void runNowMakesAFarFutureJobDeliverable() {
        String t = topic();
        schedule(t, "id", "far", "delayMs", Duration.ofDays(7).toMillis(), "payload", "x", "maxAttempts", 1);
        assertThat(reserve(t, 1, 0)).isEmpty();

        var run = api.post("/v1/topics/" + t + "/jobs/far/run", null, null);

        assertThat(run.status()).as(run.raw().body()).isEqualTo(200);
        assertThat(run.body()).isEqualTo(Api.JSON.valueToTree(Map.of("id", "far", "outcome", "MADE_READY")));
        assertThat(stateOf(t, "far")).isEqualTo("READY");
        assertThat(Instant.parse(api.get("/v1/topics/" + t + "/jobs/far")
                        .body()
                        .get("dueAt")
                        .asText()))
                .isBefore(Instant.now().plusSeconds(5));
        var again = api.post("/v1/topics/" + t + "/jobs/far/run", null, null);
        assertThat(again.body().get("outcome").asText()).isEqualTo("ALREADY_READY");

        JsonNode delivery = reserve(t, 1, 2000).get(0);
        assertThat(delivery.get("id").asText()).isEqualTo("far");
        var active = api.post("/v1/topics/" + t + "/jobs/far/run", null, null);
        assertThat(active.status()).isEqualTo(409);
        assertThat(active.error()).startsWith("state: ").contains("ACTIVE");

        api.post(
                "/v1/topics/" + t + "/jobs/far/nack",
                json("receipt", delivery.get("receipt").asText(), "error", "boom"));
        assertThat(stateOf(t, "far")).isEqualTo("DEAD");
        var dead = api.post("/v1/topics/" + t + "/jobs/far/run", null, null);
        assertThat(dead.status()).isEqualTo(409);
        assertThat(dead.error()).startsWith("state: ").contains("DEAD");

        var missing = api.post("/v1/topics/" + t + "/jobs/missing/run", null, null);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.error()).startsWith("id: ");
    }

    @Test
    void deadLettersAreRequeuedByIdsThenAll() {
        String t = topic();
        for (String id : List.of("d1", "d2", "d3")) {
            killJob(t, id);
        }
        schedule(t, "id", "alive", "delayMs", 60_000, "payload", 1);

        var some = api.post("/v1/topics/" + t + "/dead/requeue", json("ids", List.of("d1", "d1", "missing", "alive")));

        assertThat(some.status()).as(some.raw().body()).isEqualTo(200);
        assertThat(some.body()).isEqualTo(Api.JSON.valueToTree(Map.of("requeued", 1)));
        assertThat(stateOf(t, "d1")).isEqualTo("READY");
        assertThat(api.get("/v1/topics/" + t + "/jobs/d1").body().get("attempt").asInt())
                .isZero();
        assertThat(stateOf(t, "d2")).isEqualTo("DEAD");
        assertThat(stateOf(t, "alive")).isEqualTo("SCHEDULED");

        var all = api.post("/v1/topics/" + t + "/dead/requeue", "{}");

        assertThat(all.body()).isEqualTo(Api.JSON.valueToTree(Map.of("requeued", 2)));
        assertThat(List.of(stateOf(t, "d2"), stateOf(t, "d3"))).containsOnly("READY");
        assertThat(topicOf(t).get("dead").asLong()).isZero();
        assertThat(api.post("/v1/topics/" + t + "/dead/requeue", "{}")
                        .body()
                        .get("requeued")
                        .asLong())
                .isZero();
    }

    @Test
    void deadLettersAreDeletedByIdsThenAll() {
        String t = topic();
        for (String id : List.of("d1", "d2", "d3")) {
            killJob(t, id);
        }
        schedule(t, "id", "alive", "delayMs", 60_000, "payload", 1);

        var some = api.delete("/v1/topics/" + t + "/dead?id=d1&id=d2&id=missing&id=alive");

        assertThat(some.status()).as(some.raw().body()).isEqualTo(200);
        assertThat(some.body()).isEqualTo(Api.JSON.valueToTree(Map.of("deleted", 2)));
        assertThat(List.of(stateOf(t, "d1"), stateOf(t, "d2"))).containsOnly("GONE");
        assertThat(stateOf(t, "d3")).isEqualTo("DEAD");
        assertThat(stateOf(t, "alive")).isEqualTo("SCHEDULED");

        var all = api.delete("/v1/topics/" + t + "/dead");

        assertThat(all.body()).isEqualTo(Api.JSON.valueToTree(Map.of("deleted", 1)));
        assertThat(stateOf(t, "d3")).isEqualTo("GONE");
        assertThat(stateOf(t, "alive")).isEqualTo("SCHEDULED");
        assertThat(api.delete("/v1/topics/" + t + "/dead").body().get("deleted").asLong())
                .isZero();
        // The per-id endpoints of before stay.
        killJob(t, "d4");
        assertThat(api.delete("/v1/topics/" + t + "/dead/d4").status()).isEqualTo(204);
    }

    @Test
    void aPurgeDeletesTheJobsOfOneStateOnly() {
        String t = topic();
        killJob(t, "dead");
        schedule(t, "id", "active", "payload", 1);
        JsonNode delivery = reserve(t, 1, 2000).get(0);
        assertThat(delivery.get("id").asText()).isEqualTo("active");
        schedule(t, "id", "ready-1", "payload", 1);
        schedule(t, "id", "ready-2", "payload", 1);
        schedule(t, "id", "scheduled-1", "delayMs", 60_000, "payload", 1);
        schedule(t, "id", "scheduled-2", "delayMs", 60_000, "payload", 1);

        assertThat(api.delete("/v1/topics/" + t + "/jobs?state=scheduled").body())
                .isEqualTo(Api.JSON.valueToTree(Map.of("purged", 2)));
        assertThat(List.of(stateOf(t, "scheduled-1"), stateOf(t, "scheduled-2")))
                .containsOnly("GONE");
        assertThat(List.of(stateOf(t, "ready-1"), stateOf(t, "active"), stateOf(t, "dead")))
                .containsExactly("READY", "ACTIVE", "DEAD");

        assertThat(api.delete("/v1/topics/" + t + "/jobs?state=READY")
                        .body()
                        .get("purged")
                        .asLong())
                .isEqualTo(2);
        assertThat(List.of(stateOf(t, "ready-1"), stateOf(t, "ready-2"))).containsOnly("GONE");

        assertThat(api.delete("/v1/topics/" + t + "/jobs?state=active")
                        .body()
                        .get("purged")
                        .asLong())
                .isEqualTo(1);
        var ack = api.post(
                "/v1/topics/" + t + "/jobs/active/ack",
                json("receipt", delivery.get("receipt").asText()));
        assertThat(ack.status()).isEqualTo(409);
        assertThat(stateOf(t, "dead")).isEqualTo("DEAD");

        assertThat(api.delete("/v1/topics/" + t + "/jobs?state=dead")
                        .body()
                        .get("purged")
                        .asLong())
                .isEqualTo(1);
        JsonNode empty = topicOf(t);
        assertThat(List.of(empty.get("scheduled"), empty.get("ready"), empty.get("active"), empty.get("dead")))
                .allMatch(n -> n.asLong() == 0);
        assertThat(api.delete("/v1/topics/" + t + "/jobs?state=ready")
                        .body()
                        .get("purged")
                        .asLong())
                .isZero();
    }

    @Test
    void aListingPagesWithACursorInOrderWithoutDuplicates() {
        String t = topic();
        Instant base = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        List<Integer> order = new ArrayList<>(IntStream.range(0, 23).boxed().toList());
        java.util.Collections.shuffle(order, new java.util.Random(7));
        for (int i : order) {
            // Seven due times for 23 jobs: the order within a due time is the ids'.
            schedule(
                    t,
                    "id",
                    "job-" + (char) ('a' + i),
                    "runAt",
                    base.plusSeconds(i % 7).toString(),
                    "payload",
                    i);
        }

        for (int limit : List.of(1, 5, 7, 23, 50)) {
            List<JsonNode> jobs = listAll(t, "scheduled", limit);

            List<String> ids = jobs.stream().map(j -> j.get("id").asText()).toList();
            assertThat(ids).as("limit %d", limit).hasSize(23).doesNotHaveDuplicates();
            List<String> expected = IntStream.range(0, 23)
                    .boxed()
                    .sorted(Comparator.<Integer>comparingInt(i -> i % 7).thenComparing(i -> "job-" + (char) ('a' + i)))
                    .map(i -> "job-" + (char) ('a' + i))
                    .toList();
            assertThat(ids).as("limit %d", limit).isEqualTo(expected);
        }

        var firstPage = api.get("/v1/topics/" + t + "/jobs?state=scheduled");
        assertThat(firstPage.body().get("jobs")).hasSize(23);
        assertThat(firstPage.body().get("nextCursor").isNull()).isTrue();
        JsonNode first = firstPage.body().get("jobs").get(0);
        assertThat(fieldsOf(first)).isEqualTo(JOB_SUMMARY_FIELDS);
        assertThat(first.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(Instant.parse(first.get("dueAt").asText())).isEqualTo(base);
        assertThat(first.get("attempt").asInt()).isZero();
        assertThat(first.get("maxAttempts").asInt()).isPositive();
        assertThat(List.of(first.get("lastError"), first.get("leaseUntil"), first.get("diedAt")))
                .allMatch(JsonNode::isNull);
        assertThat(api.get("/v1/topics/" + t + "/jobs?state=ready").body().get("jobs"))
                .isEmpty();
    }

    @Test
    void aListingShowsEachStatesTimesAndAPreviewOfThePayload() {
        String t = topic();
        killJob(t, "dead");
        schedule(t, "id", "active", "payload", "a".repeat(300));
        String receipt = reserve(t, 1, 2000).get(0).get("receipt").asText();
        schedule(t, "id", "ready", "payload", "é".repeat(200));
        Hourglass hourglass = context.getBean(Hourglass.class);
        hourglass.schedule(JobRequest.builder(t)
                .id("binary")
                .payload(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1})
                .delay(Duration.ofHours(1))
                .build());

        JsonNode dead = api.get("/v1/topics/" + t + "/jobs?state=dead")
                .body()
                .get("jobs")
                .get(0);
        assertThat(dead.get("id").asText()).isEqualTo("dead");
        assertThat(dead.get("lastError").asText()).isEqualTo("failed dead");
        assertThat(Instant.parse(dead.get("diedAt").asText()))
                .isBefore(Instant.now().plusSeconds(1));
        assertThat(dead.get("leaseUntil").isNull()).isTrue();
        assertThat(dead.get("payloadPreview").asText()).isEqualTo("\"dead\"");
        assertThat(dead.get("payloadBytes").asInt()).isEqualTo(6);

        JsonNode active = api.get("/v1/topics/" + t + "/jobs?state=active")
                .body()
                .get("jobs")
                .get(0);
        assertThat(active.get("id").asText()).isEqualTo("active");
        assertThat(active.get("attempt").asInt()).isEqualTo(1);
        assertThat(Instant.parse(active.get("leaseUntil").asText())).isAfter(Instant.now());
        assertThat(active.get("diedAt").isNull()).isTrue();
        assertThat(active.get("payloadBytes").asInt()).isEqualTo(302);
        assertThat(active.get("payloadPreview").asText()).isEqualTo("\"" + "a".repeat(255));
        assertThat(active.get("payloadPreviewEncoding").asText()).isEqualTo("utf-8");

        JsonNode ready = api.get("/v1/topics/" + t + "/jobs?state=ready")
                .body()
                .get("jobs")
                .get(0);
        assertThat(ready.get("payloadBytes").asInt()).isEqualTo(402);
        // 256 bytes end inside the 128th "é": the cut character is left out of the text.
        assertThat(ready.get("payloadPreview").asText()).isEqualTo("\"" + "é".repeat(127));
        assertThat(ready.get("payloadPreviewEncoding").asText()).isEqualTo("utf-8");

        JsonNode binary = api.get("/v1/topics/" + t + "/jobs?state=scheduled")
                .body()
                .get("jobs")
                .get(0);
        assertThat(binary.get("id").asText()).isEqualTo("binary");
        assertThat(binary.get("payloadBytes").asInt()).isEqualTo(4);
        assertThat(binary.get("payloadPreview").asText()).isEqualTo("//4AAQ==");
        assertThat(binary.get("payloadPreviewEncoding").asText()).isEqualTo("base64");

        assertThat(api.post("/v1/topics/" + t + "/jobs/active/ack", json("receipt", receipt))
                        .status())
                .isEqualTo(204);
    }

    @Test
    void theHistoryShowsAckedAndFailedJobsPerMinute() {
        String t = topic();
        for (int i = 0; i < 3; i++) {
            schedule(t, "id", "h" + i, "payload", i, "maxAttempts", 2);
        }
        JsonNode deliveries = reserve(t, 3, 2000);
        assertThat(deliveries).hasSize(3);
        for (int i = 0; i < 3; i++) {
            JsonNode d = deliveries.get(i);
            String path = "/v1/topics/" + t + "/jobs/" + d.get("id").asText() + (i < 2 ? "/ack" : "/nack");
            assertThat(api.post(path, json("receipt", d.get("receipt").asText()))
                            .status())
                    .isEqualTo(204);
        }

        var history = api.get("/v1/topics/" + t + "/history");

        assertThat(history.status()).as(history.raw().body()).isEqualTo(200);
        assertThat(fieldsOf(history.body())).containsExactlyInAnyOrder("topic", "minutes", "expired");
        assertThat(history.body().get("expired").asLong()).isZero();
        assertThat(history.body().get("topic").asText()).isEqualTo(t);
        List<JsonNode> minutes = new ArrayList<>();
        history.body().get("minutes").forEach(minutes::add);
        assertThat(minutes).isNotEmpty().hasSizeLessThanOrEqualTo(2);
        List<Instant> starts = minutes.stream()
                .map(m -> Instant.parse(m.get("minute").asText()))
                .toList();
        assertThat(starts).isSorted().allMatch(m -> m.equals(m.truncatedTo(ChronoUnit.MINUTES)));
        assertThat(starts.get(0)).isAfter(Instant.now().minus(Duration.ofMinutes(2)));
        assertThat(minutes.stream().mapToLong(m -> m.get("processed").asLong()).sum())
                .isEqualTo(2);
        assertThat(minutes.stream().mapToLong(m -> m.get("failed").asLong()).sum())
                .isEqualTo(1);
        assertThat(fieldsOf(minutes.get(0))).containsExactlyInAnyOrder("minute", "processed", "failed");

        JsonNode unused = api.get("/v1/topics/" + topic() + "/history").body();
        assertThat(unused.get("minutes")).isEmpty();
    }

    @Test
    void eachBadInputIsA400NamingTheFieldAndChangesNothing() {
        String t = topic();
        killJob(t, "d1");
        killJob(t, "d2");
        schedule(t, "id", "later", "delayMs", 60_000, "payload", 1);
        String deadCursor = api.get("/v1/topics/" + t + "/jobs?state=dead&limit=1")
                .body()
                .get("nextCursor")
                .asText();
        String tooManyIds = IntStream.range(0, 1001).mapToObj(i -> "id=d" + i).collect(Collectors.joining("&"));
        List<String> tooManyInBody =
                IntStream.range(0, 1001).mapToObj(i -> "d" + i).toList();
        String jobs = "/v1/topics/" + t + "/jobs";
        String dead = "/v1/topics/" + t + "/dead";
        // method, path, body (null: none), the field the error must name
        List<String[]> cases = List.of(
                new String[] {"GET", jobs + "?state=sleeping", null, "state"},
                new String[] {"GET", jobs + "?state=", null, "state"},
                new String[] {"GET", jobs, null, "state"},
                new String[] {"GET", jobs + "?state=ready&limit=0", null, "limit"},
                new String[] {"GET", jobs + "?state=ready&limit=1001", null, "limit"},
                new String[] {"GET", jobs + "?state=ready&limit=-5", null, "limit"},
                new String[] {"GET", jobs + "?state=ready&limit=x", null, "limit"},
                new String[] {"GET", jobs + "?state=ready&limit=99999999999", null, "limit"},
                new String[] {"GET", jobs + "?state=dead&cursor=not-a-cursor", null, "cursor"},
                new String[] {"GET", jobs + "?state=dead&cursor=%25%25%25", null, "cursor"},
                new String[] {"GET", jobs + "?state=scheduled&cursor=" + deadCursor, null, "cursor"},
                new String[] {"GET", "/v1/topics/-bad/jobs?state=ready", null, "topic"},
                new String[] {"GET", "/v1/topics/-bad", null, "topic"},
                new String[] {"GET", "/v1/topics/-bad/history", null, "topic"},
                new String[] {"POST", "/v1/topics/-bad/pause", null, "topic"},
                new String[] {"POST", "/v1/topics/-bad/resume", null, "topic"},
                new String[] {"DELETE", jobs + "?state=everything", null, "state"},
                new String[] {"DELETE", jobs, null, "state"},
                new String[] {"DELETE", jobs + "?state=dead&force=true", null, "force"},
                new String[] {"DELETE", "/v1/topics/-bad/jobs?state=dead", null, "topic"},
                new String[] {"POST", jobs + "/a%7Cb/run", null, "id"},
                new String[] {"POST", "/v1/topics/-bad/jobs/later/run", null, "topic"},
                new String[] {"POST", dead + "/requeue", json("ids", tooManyInBody), "ids"},
                new String[] {"POST", dead + "/requeue", "{\"ids\": []}", "ids"},
                new String[] {"POST", dead + "/requeue", "{\"ids\": null}", "ids"},
                new String[] {"POST", dead + "/requeue", "{\"ids\": \"d1\"}", "ids"},
                new String[] {"POST", dead + "/requeue", "{\"ids\": [1]}", "ids[0]"},
                new String[] {"POST", dead + "/requeue", "{\"ids\": [\"d1\", null]}", "ids[1]"},
                new String[] {"POST", dead + "/requeue", "{\"ids\": [\"a b\"]}", "id"},
                new String[] {"POST", dead + "/requeue", "{\"idz\": [\"d1\"]}", "idz"},
                new String[] {"POST", dead + "/requeue", "{\"ids\": [\"d1\"]", "body"},
                new String[] {"POST", dead + "/requeue", "[\"d1\"]", "body"},
                new String[] {"POST", dead + "/requeue", "", "body"},
                new String[] {"POST", dead + "/requeue", "null", "body"},
                new String[] {"POST", "/v1/topics/-bad/dead/requeue", "{}", "topic"},
                new String[] {"DELETE", dead + "?id=", null, "id"},
                new String[] {"DELETE", dead + "?id=d1&id=a%7Cb", null, "id"},
                new String[] {"DELETE", dead + "?" + tooManyIds, null, "id"},
                new String[] {"DELETE", dead + "?ids=d1", null, "ids"},
                new String[] {"DELETE", dead + "?id=d1&dryRun=true", null, "dryRun"},
                new String[] {"DELETE", "/v1/topics/-bad/dead", null, "topic"});
        RedisSnapshot before = snapshot();

        for (String[] c : cases) {
            var response = api.send(c[0], c[1], c[2], c[2] == null ? null : "application/json");

            String request = c[0] + " " + (c[1].length() > 120 ? c[1].substring(0, 120) + "..." : c[1]);
            assertThat(response.status())
                    .as(request + " -> " + response.raw().body())
                    .isEqualTo(400);
            assertThat(response.error()).as(request).startsWith(c[3] + ": ");
        }
        assertThat(snapshot().keys()).isEqualTo(before.keys());
        assertThat(topicOf(t).get("dead").asLong()).isEqualTo(2);
    }

    @Test
    void theRequeueBodyMustBeJson() {
        String t = topic();
        killJob(t, "d1");

        var response = api.post("/v1/topics/" + t + "/dead/requeue", "{}", "text/plain");

        assertThat(response.status()).isEqualTo(415);
        assertThat(response.error()).startsWith("Content-Type: ");
        assertThat(stateOf(t, "d1")).isEqualTo("DEAD");
    }
}
