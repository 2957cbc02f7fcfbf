package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * With {@code --completed-retention}, an acked job stays readable as COMPLETED, with the result its pull worker's ack
 * gave; a bad result is refused with a 400 naming it and changes nothing.
 */
@ServerSettings({"--hourglass.insecure=true", "--hourglass.completed-retention=1h"})
class CompletedRetentionIntegrationTests extends ServerTestSupport {

    private static JsonNode reserveOne(String t) {
        var response = api.post("/v1/topics/" + t + "/reservations", json("max", 1, "waitMs", 1000));
        assertThat(response.status()).isEqualTo(200);
        return response.body().get(0);
    }

    @Test
    void anAckedJobIsCompletedWithTheAcksResult() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "c1", "payload", 42));
        JsonNode delivery = reserveOne(t);
        Instant before = Instant.now();
        var ack = api.post(
                "/v1/topics/" + t + "/jobs/c1/ack",
                "{\"receipt\":\"" + delivery.get("receipt").asText() + "\",\"result\":{\"invoice\":\"INV-7\"}}");
        assertThat(ack.status()).isEqualTo(204);

        var job = api.get("/v1/topics/" + t + "/jobs/c1");
        assertThat(job.status()).isEqualTo(200);
        assertThat(job.body().get("state").asText()).isEqualTo("COMPLETED");
        assertThat(job.body().get("attempt").asInt()).isEqualTo(1);
        assertThat(job.body().get("result").get("invoice").asText()).isEqualTo("INV-7");
        assertThat(Instant.parse(job.body().get("completedAt").asText())).isAfter(before.minusSeconds(1));
        assertThat(job.body().has("leaseUntil")).isFalse();
    }

    @Test
    void anAckWithoutAResultCompletesWithNone() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "c2", "payload", 1));
        JsonNode delivery = reserveOne(t);
        assertThat(api.post(
                                "/v1/topics/" + t + "/jobs/c2/ack",
                                json("receipt", delivery.get("receipt").asText()))
                        .status())
                .isEqualTo(204);

        JsonNode job = api.get("/v1/topics/" + t + "/jobs/c2").body();
        assertThat(job.get("state").asText()).isEqualTo("COMPLETED");
        assertThat(job.has("result")).isFalse();
    }

    @Test
    void aResultTooLargeOrTooDeepIsA400AndTheJobStaysActive() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "c3", "payload", 1));
        String receipt = reserveOne(t).get("receipt").asText();
        String ack = "/v1/topics/" + t + "/jobs/c3/ack";

        var tooLarge = api.post(ack, json("receipt", receipt, "result", "x".repeat(20_000)));
        assertThat(tooLarge.status()).isEqualTo(400);
        assertThat(tooLarge.error()).startsWith("result:");
        var tooDeep =
                api.post(ack, "{\"receipt\":\"" + receipt + "\",\"result\":" + "[".repeat(150) + "]".repeat(150) + "}");
        assertThat(tooDeep.status()).isEqualTo(400);
        assertThat(tooDeep.error()).startsWith("result:");
        assertThat(api.get("/v1/topics/" + t + "/jobs/c3").body().get("state").asText())
                .isEqualTo("ACTIVE");

        assertThat(api.post(ack, json("receipt", receipt, "result", "fine")).status())
                .isEqualTo(204);
        assertThat(api.get("/v1/topics/" + t + "/jobs/c3").body().get("result").asText())
                .isEqualTo("fine");
    }
}
