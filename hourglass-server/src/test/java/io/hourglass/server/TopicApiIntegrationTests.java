package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Per-topic counts and the dead letters: listing, requeue and delete, and the conflicts around them. */
class TopicApiIntegrationTests extends ServerTestSupport {

    /** Schedules a job with one attempt, reserves it and nacks it, so that it is dead. */
    private static void killJob(String t, String id) {
        api.post("/v1/topics/" + t + "/jobs", json("id", id, "payload", id, "maxAttempts", 1));
        JsonNode delivery = api.post("/v1/topics/" + t + "/reservations", json("waitMs", 2000))
                .body()
                .get(0);
        assertThat(delivery.get("id").asText()).isEqualTo(id);
        assertThat(api.post(
                                "/v1/topics/" + t + "/jobs/" + id + "/nack",
                                json("receipt", delivery.get("receipt").asText(), "error", "failed " + id))
                        .status())
                .isEqualTo(204);
    }

    @Test
    void listsEveryTopicWithItsCounts() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "s", "delayMs", 60_000, "payload", 1));
        api.post("/v1/topics/" + t + "/jobs", json("id", "r", "payload", 1));

        var topics = api.get("/v1/topics");
        assertThat(topics.status()).isEqualTo(200);
        JsonNode mine = null;
        for (JsonNode n : topics.body()) {
            if (n.get("topic").asText().equals(t)) {
                mine = n;
            }
        }
        assertThat(mine).isNotNull();
        assertThat(mine.get("scheduled").asLong()).isEqualTo(1);
        assertThat(mine.get("ready").asLong()).isEqualTo(1);
        assertThat(mine.get("active").asLong()).isZero();
        assertThat(mine.get("dead").asLong()).isZero();
        assertThat(api.get("/v1/topics/" + t).body().get("scheduled").asLong()).isEqualTo(1);
    }

    @Test
    void listsRequeuesAndDeletesDeadLetters() {
        String t = topic();
        killJob(t, "dead-1");
        killJob(t, "dead-2");

        var dead = api.get("/v1/topics/" + t + "/dead");
        assertThat(dead.status()).isEqualTo(200);
        assertThat(dead.body()).hasSize(2);
        assertThat(dead.body().get(0).get("id").asText()).isEqualTo("dead-1");
        assertThat(dead.body().get(0).get("state").asText()).isEqualTo("DEAD");
        assertThat(dead.body().get(0).get("lastError").asText()).isEqualTo("failed dead-1");
        assertThat(dead.body().get(0).get("payload").asText()).isEqualTo("dead-1");
        assertThat(api.get("/v1/topics/" + t + "/dead?offset=1&limit=5").body()).hasSize(1);

        assertThat(api.post("/v1/topics/" + t + "/dead/dead-1/requeue", null, null)
                        .status())
                .isEqualTo(204);
        var requeued = api.get("/v1/topics/" + t + "/jobs/dead-1").body();
        assertThat(requeued.get("state").asText()).isEqualTo("READY");
        assertThat(requeued.get("attempt").asInt()).isZero();

        assertThat(api.delete("/v1/topics/" + t + "/dead/dead-2").status()).isEqualTo(204);
        assertThat(api.get("/v1/topics/" + t + "/jobs/dead-2").status()).isEqualTo(404);
        assertThat(api.delete("/v1/topics/" + t + "/dead/dead-2").status()).isEqualTo(404);
        assertThat(api.get("/v1/topics/" + t + "/dead").body()).isEmpty();
    }

    @Test
    void requeueOfALiveJobAndRescheduleOfADeadOneAreConflicts() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "alive", "delayMs", 60_000, "payload", 1));
        killJob(t, "dead");

        var requeue = api.post("/v1/topics/" + t + "/dead/alive/requeue", null, null);
        assertThat(requeue.status()).isEqualTo(409);
        assertThat(requeue.error()).isNotBlank();

        var reschedule = api.post("/v1/topics/" + t + "/jobs/dead/reschedule", json("delayMs", 10));
        assertThat(reschedule.status()).isEqualTo(409);
        assertThat(reschedule.error()).contains("dead");

        assertThat(api.post("/v1/topics/" + t + "/dead/missing/requeue", null, null)
                        .status())
                .isEqualTo(404);
        assertThat(api.delete("/v1/topics/" + t + "/dead/alive").status()).isEqualTo(404);
        assertThat(api.get("/v1/topics/" + t + "/jobs/alive")
                        .body()
                        .get("state")
                        .asText())
                .isEqualTo("SCHEDULED");
    }
}
