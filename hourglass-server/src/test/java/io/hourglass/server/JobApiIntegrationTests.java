package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobApiIntegrationTests extends ServerTestSupport {

    @Test
    void schedulesAJobAndReadsItBackWithItsJsonPayload() {
        String t = topic();
        Instant before = Instant.now();
        var created = api.post(
                "/v1/topics/" + t + "/jobs",
                json(
                        "id",
                        "order-42",
                        "delayMs",
                        60_000,
                        "payload",
                        Map.of("orderId", 42, "items", List.of("a", "b"))));

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.raw().headers().firstValue("Location")).hasValue("/v1/topics/" + t + "/jobs/order-42");
        assertThat(created.body().get("id").asText()).isEqualTo("order-42");
        assertThat(created.body().get("topic").asText()).isEqualTo(t);
        assertThat(created.body().get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(Instant.parse(created.body().get("dueAt").asText()))
                .isBetween(before.plusSeconds(59), Instant.now().plusSeconds(61));

        var job = api.get("/v1/topics/" + t + "/jobs/order-42");
        assertThat(job.status()).isEqualTo(200);
        assertThat(job.body().get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(job.body().get("dueAt").asText())
                .isEqualTo(created.body().get("dueAt").asText());
        assertThat(job.body().get("attempt").asInt()).isZero();
        assertThat(job.body().get("maxAttempts").asInt()).isEqualTo(10);
        assertThat(job.body().get("payload"))
                .isEqualTo(Api.JSON.valueToTree(Map.of("orderId", 42, "items", List.of("a", "b"))));
        assertThat(job.body().has("lastError")).isTrue();
        assertThat(job.body().get("lastError").isNull()).isTrue();
        assertThat(job.body().has("leaseUntil")).isFalse();
        assertThat(job.body().has("callbackUrl")).isFalse();
    }

    @Test
    void generatesAnIdAndMakesAJobWithoutDelayReadyAtOnce() {
        String t = topic();
        var created = api.post("/v1/topics/" + t + "/jobs", json("payload", "hello"));

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().get("id").asText()).isNotBlank();
        assertThat(created.body().get("state").asText()).isEqualTo("READY");
        var job =
                api.get("/v1/topics/" + t + "/jobs/" + created.body().get("id").asText());
        assertThat(job.body().get("payload").asText()).isEqualTo("hello");
    }

    @Test
    void schedulesAtAnAbsoluteInstantAndShowsTheCallbackUrl() {
        String t = topic();
        Instant runAt = Instant.now().plus(Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        var created = api.post(
                "/v1/topics/" + t + "/jobs",
                json(
                        "id",
                        "remind-1",
                        "runAt",
                        runAt.toString(),
                        "payload",
                        7,
                        "callbackUrl",
                        "http://203.0.113.9/hook",
                        "maxAttempts",
                        3,
                        "backoffMs",
                        List.of(10, 20),
                        "leaseMs",
                        5000));

        assertThat(created.status()).isEqualTo(201);
        assertThat(Instant.parse(created.body().get("dueAt").asText())).isEqualTo(runAt);
        var job = api.get("/v1/topics/" + t + "/jobs/remind-1").body();
        assertThat(job.get("callbackUrl").asText()).isEqualTo("http://203.0.113.9/hook");
        assertThat(job.get("maxAttempts").asInt()).isEqualTo(3);
        assertThat(job.get("payload").asInt()).isEqualTo(7);
        assertThat(api.delete("/v1/topics/" + t + "/jobs/remind-1").status()).isEqualTo(204);
    }

    @Test
    void refusesAnExistingIdUnlessAskedToReplaceOrKeep() {
        String t = topic();
        String path = "/v1/topics/" + t + "/jobs";
        assertThat(api.post(path, json("id", "x", "delayMs", 60_000, "payload", 1))
                        .status())
                .isEqualTo(201);

        var conflict = api.post(path, json("id", "x", "delayMs", 1000, "payload", 2));
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.error()).startsWith("id:");

        var kept = api.post(path + "?onConflict=keep", json("id", "x", "delayMs", 1000, "payload", 2));
        assertThat(kept.status()).isEqualTo(200);
        assertThat(kept.body().get("outcome").asText()).isEqualTo("KEPT");
        assertThat(Instant.parse(kept.body().get("dueAt").asText()))
                .isAfter(Instant.now().plusSeconds(50));
        assertThat(api.get(path + "/x").body().get("payload").asInt()).isEqualTo(1);

        var replaced = api.post(path + "?onConflict=replace", json("id", "x", "delayMs", 120_000, "payload", 3));
        assertThat(replaced.status()).isEqualTo(201);
        assertThat(replaced.body().get("outcome").asText()).isEqualTo("REPLACED");
        assertThat(api.get(path + "/x").body().get("payload").asInt()).isEqualTo(3);
    }

    @Test
    void anIdWhoseJobEndedIsReservedAndTheAnswerNamesHowAndWhen() {
        String t = topic();
        String path = "/v1/topics/" + t + "/jobs";
        api.post(path, json("id", "done", "payload", 1));
        var reserved = api.post("/v1/topics/" + t + "/reservations", json("max", 1, "waitMs", 1000));
        String receipt = reserved.body().get(0).get("receipt").asText();
        Instant before = Instant.now();
        assertThat(api.post(path + "/done/ack", json("receipt", receipt)).status())
                .isEqualTo(204);

        var conflict = api.post(path, json("id", "done", "payload", 2));
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.error()).startsWith("id:").contains("ACKED");
        assertThat(conflict.body().get("ended").asText()).isEqualTo("ACKED");
        assertThat(Instant.parse(conflict.body().get("endedAt").asText()))
                .isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));

        var kept = api.post(path + "?onConflict=keep", json("id", "done", "payload", 2));
        assertThat(kept.status()).isEqualTo(200);
        assertThat(kept.body().get("outcome").asText()).isEqualTo("KEPT");
        assertThat(kept.body().get("ended").asText()).isEqualTo("ACKED");
        assertThat(kept.body().get("endedAt").asText())
                .isEqualTo(conflict.body().get("endedAt").asText());
        assertThat(kept.body().has("state")).isFalse();
        assertThat(api.get(path + "/done").status()).as("no job was created").isEqualTo(404);

        api.post(path, json("id", "dropped", "delayMs", 60_000, "payload", 1));
        assertThat(api.delete(path + "/dropped").status()).isEqualTo(204);
        var again = api.post(path + "?onConflict=keep", json("id", "dropped", "payload", 2));
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body().get("ended").asText()).isEqualTo("CANCELLED");

        var replaced = api.post(path + "?onConflict=replace", json("id", "dropped", "payload", 3));
        assertThat(replaced.status()).isEqualTo(201);
        assertThat(replaced.body().get("outcome").asText()).isEqualTo("CREATED");
        assertThat(replaced.body().has("ended")).isFalse();
    }

    @Test
    void cancelsAJobAndThenNoLongerFindsIt() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "c1", "delayMs", 60_000, "payload", 1));

        assertThat(api.delete("/v1/topics/" + t + "/jobs/c1").status()).isEqualTo(204);
        var gone = api.get("/v1/topics/" + t + "/jobs/c1");
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.error()).startsWith("id:");
        assertThat(api.delete("/v1/topics/" + t + "/jobs/c1").status()).isEqualTo(404);
    }

    @Test
    void reschedulesByDelayOrInstant() {
        String t = topic();
        String job = "/v1/topics/" + t + "/jobs/r1";
        api.post("/v1/topics/" + t + "/jobs", json("id", "r1", "delayMs", 60_000, "payload", 1));

        var sooner = api.post(job + "/reschedule", json("delayMs", 0));
        assertThat(sooner.status()).isEqualTo(200);
        assertThat(sooner.body().get("state").asText()).isEqualTo("READY");

        Instant later = Instant.now().plus(Duration.ofDays(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String withOffset = later.atOffset(java.time.ZoneOffset.ofHours(1)).toString();
        var atInstant = api.post(job + "/reschedule", json("runAt", withOffset));
        assertThat(atInstant.status()).isEqualTo(200);
        assertThat(atInstant.body().get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(Instant.parse(atInstant.body().get("dueAt").asText())).isEqualTo(later);
        assertThat(api.get(job).body().get("dueAt").asText()).isEqualTo(later.toString());

        assertThat(api.post("/v1/topics/" + t + "/jobs/nope/reschedule", json("delayMs", 5))
                        .status())
                .isEqualTo(404);
    }

    @Test
    void unknownPathsAndMethodsAnswerJson() {
        var notFound = api.get("/v2/nothing");
        assertThat(notFound.status()).isEqualTo(404);
        assertThat(notFound.error()).isNotBlank();

        var wrongMethod = api.delete("/v1/topics");
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.error()).isNotBlank();

        var errorPath = api.get("/error");
        assertThat(errorPath.status()).isEqualTo(404);
        assertThat(errorPath.error()).startsWith("path:");
    }

    @Test
    void requestsTomcatRefusesItselfAnswerJsonToo() {
        for (String path : List.of("/v1/topics/a%2Fb/jobs", "/v1/topics/a%00b/jobs")) {
            var refused = api.get(path);

            assertThat(refused.status()).as(path).isEqualTo(400);
            assertThat(refused.error()).as(path).startsWith("request: ");
        }
    }

    @Test
    void answersJsonEvenToAClientThatAsksForHtml() throws Exception {
        var request = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + port() + "/v1/topics/" + topic() + "/jobs/none"))
                .header("Accept", "text/html")
                .GET()
                .build();
        var response = java.net.http.HttpClient.newHttpClient()
                .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(Api.JSON.readTree(response.body()).get("error").asText()).startsWith("id:");
    }

    @Test
    void healthSaysRedisIsUp() {
        var health = api.get("/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body().get("status").asText()).isEqualTo("UP");
        assertThat(health.body().get("redis").asText()).isEqualTo("UP");
    }
}
