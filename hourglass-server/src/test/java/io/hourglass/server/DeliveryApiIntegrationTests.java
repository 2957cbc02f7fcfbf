package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Pull workers over HTTP: reservations (with long polling), ack, nack, extend and receipt fencing. */
class DeliveryApiIntegrationTests extends ServerTestSupport {

    private static JsonNode reserveOne(String t, long waitMs) {
        var response = api.post("/v1/topics/" + t + "/reservations", json("max", 1, "waitMs", waitMs));
        assertThat(response.status()).isEqualTo(200);
        return response.body().isEmpty() ? null : response.body().get(0);
    }

    @Test
    void aDelayedJobIsNotReservableBeforeItsDueTimeAndIsAfter() {
        String t = topic();
        var created = api.post("/v1/topics/" + t + "/jobs", json("id", "d1", "delayMs", 300, "payload", "p"));
        Instant dueAt = Instant.parse(created.body().get("dueAt").asText());

        assertThat(reserveOne(t, 0)).isNull();
        JsonNode[] got = new JsonNode[1];
        await().atMost(3, TimeUnit.SECONDS)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> (got[0] = reserveOne(t, 0)) != null);
        Instant reservedAt = Instant.now();

        assertThat(reservedAt).isAfterOrEqualTo(dueAt);
        assertThat(got[0].get("id").asText()).isEqualTo("d1");
        assertThat(got[0].get("payload").asText()).isEqualTo("p");
        assertThat(got[0].get("attempt").asInt()).isEqualTo(1);
        assertThat(got[0].get("receipt").asText()).isNotBlank();
        assertThat(got[0].get("dueAt").asText()).isEqualTo(dueAt.toString());
        assertThat(Instant.parse(got[0].get("leaseUntil").asText())).isAfter(reservedAt.plusSeconds(20));
        var job = api.get("/v1/topics/" + t + "/jobs/d1").body();
        assertThat(job.get("state").asText()).isEqualTo("ACTIVE");
        assertThat(job.get("leaseUntil").asText())
                .isEqualTo(got[0].get("leaseUntil").asText());
    }

    @Test
    void ackDeletesTheJobAndAStaleReceiptIsAConflict() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "a1", "payload", 1));
        JsonNode delivery = reserveOne(t, 1000);
        String ack = "/v1/topics/" + t + "/jobs/a1/ack";

        var wrong = api.post(ack, json("receipt", delivery.get("receipt").asText() + "0"));
        assertThat(wrong.status()).isEqualTo(409);
        assertThat(wrong.error()).startsWith("receipt:");

        assertThat(api.post(ack, json("receipt", delivery.get("receipt").asText()))
                        .status())
                .isEqualTo(204);
        assertThat(api.get("/v1/topics/" + t + "/jobs/a1").status()).isEqualTo(404);
        assertThat(api.post(ack, json("receipt", delivery.get("receipt").asText()))
                        .status())
                .isEqualTo(409);
    }

    @Test
    void nackWithARetryDelayReschedulesTheJob() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "n1", "payload", 1));
        JsonNode first = reserveOne(t, 1000);
        long nackedAt = System.currentTimeMillis();

        var nack = api.post(
                "/v1/topics/" + t + "/jobs/n1/nack",
                json("receipt", first.get("receipt").asText(), "error", "boom", "retryDelayMs", 400));
        assertThat(nack.status()).isEqualTo(204);

        var job = api.get("/v1/topics/" + t + "/jobs/n1").body();
        assertThat(job.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(job.get("attempt").asInt()).isEqualTo(1);
        assertThat(job.get("lastError").asText()).isEqualTo("boom");
        assertThat(Instant.parse(job.get("dueAt").asText()).toEpochMilli()).isBetween(nackedAt + 300, nackedAt + 1500);
        assertThat(reserveOne(t, 0)).isNull();

        JsonNode second = reserveOne(t, 3000);
        assertThat(second.get("attempt").asInt()).isEqualTo(2);
        assertThat(System.currentTimeMillis())
                .isGreaterThanOrEqualTo(Instant.parse(job.get("dueAt").asText()).toEpochMilli());
        assertThat(api.post(
                                "/v1/topics/" + t + "/jobs/n1/nack",
                                json("receipt", first.get("receipt").asText()))
                        .status())
                .isEqualTo(409);
    }

    @Test
    void extendMovesTheLeaseDeadline() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "e1", "payload", 1, "leaseMs", 1000));
        JsonNode delivery = reserveOne(t, 1000);
        Instant firstLease = Instant.parse(delivery.get("leaseUntil").asText());

        var extended = api.post(
                "/v1/topics/" + t + "/jobs/e1/extend",
                json("receipt", delivery.get("receipt").asText(), "leaseMs", 60_000));

        assertThat(extended.status()).isEqualTo(200);
        assertThat(Instant.parse(extended.body().get("leaseUntil").asText())).isAfter(firstLease.plusSeconds(50));
        assertThat(api.post("/v1/topics/" + t + "/jobs/e1/extend", json("receipt", "999999", "leaseMs", 1000))
                        .status())
                .isEqualTo(409);
    }

    /** Makes the topic known without a job due soon. */
    private static void createTopic(String t) {
        api.post("/v1/topics/" + t + "/jobs", json("id", "far-ahead", "delayMs", 3_600_000, "payload", 0));
    }

    @Test
    void aLongPollReturnsAsSoonAsAJobComesDue() throws Exception {
        String t = topic();
        createTopic(t);
        long start = System.nanoTime();
        var poll = api.postAsync("/v1/topics/" + t + "/reservations", json("max", 10, "waitMs", 3000));
        Thread.sleep(100);
        var created = api.post("/v1/topics/" + t + "/jobs", json("id", "lp1", "delayMs", 500, "payload", 1));
        Instant dueAt = Instant.parse(created.body().get("dueAt").asText());

        var response = poll.get(5, TimeUnit.SECONDS);
        Instant answeredAt = Instant.now();
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).hasSize(1);
        assertThat(response.body().get(0).get("id").asText()).isEqualTo("lp1");
        assertThat(answeredAt).isAfterOrEqualTo(dueAt);
        assertThat(elapsedMs).isLessThan(1500);
    }

    @Test
    void aLongPollWithNothingDueAnswersAnEmptyListWhenTheWaitEnds() {
        String t = topic();
        createTopic(t);
        long start = System.nanoTime();

        var response = api.post("/v1/topics/" + t + "/reservations", json("waitMs", 400));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
        assertThat((System.nanoTime() - start) / 1_000_000).isBetween(350L, 2000L);
    }

    @Test
    void aReservationOnATopicNeverUsedWaitsForItsFirstJob() throws Exception {
        String t = topic();
        long start = System.nanoTime();
        var poll = api.postAsync("/v1/topics/" + t + "/reservations", json("max", 1, "waitMs", 10_000));
        Thread.sleep(300);
        assertThat(poll).isNotDone();

        api.post("/v1/topics/" + t + "/jobs", json("id", "first", "payload", 1));

        var response = poll.get(10, TimeUnit.SECONDS);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).hasSize(1);
        assertThat(response.body().get(0).get("id").asText()).isEqualTo("first");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000L);
    }

    @Test
    void aReservationOnATopicNeverUsedAnswersAnEmptyListWhenTheWaitEnds() {
        var response = api.post("/v1/topics/" + topic() + "/reservations", json("waitMs", 300));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void reservesSeveralJobsAtOnceWithADefaultBody() {
        String t = topic();
        for (int i = 0; i < 3; i++) {
            api.post("/v1/topics/" + t + "/jobs", json("id", "m" + i, "payload", i));
        }
        assertThat(api.post("/v1/topics/" + t + "/reservations", null, null).body())
                .hasSize(1);

        var rest = api.post("/v1/topics/" + t + "/reservations", json("max", 5, "leaseMs", 2000));
        assertThat(rest.body()).hasSize(2);
    }
}
