package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.Hourglass;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Payloads nested too deep for the API's replies: refused at schedule time, and, when one was scheduled through the
 * library, dead-lettered at reservation while the rest of the batch is delivered (the reply used to fail with 500 after
 * the claim, leaving every job of the batch leased to nobody).
 */
class PayloadDepthIntegrationTests extends ServerTestSupport {

    private static String nested(int depth) {
        return "[".repeat(depth) + "1" + "]".repeat(depth);
    }

    @Test
    void aPayloadNestedDeeperThanTheLimitIsRefusedNamingPayload() {
        String t = topic();
        // 2000 is past what Jackson reads at all (1000): refused while the body is read, named all the same.
        for (int depth : new int[] {101, 999, 2000}) {
            var refused = api.post(
                    "/v1/topics/" + t + "/jobs", "{\"id\": \"deep" + depth + "\", \"payload\": " + nested(depth) + "}");
            assertThat(refused.status()).as("depth %d", depth).isEqualTo(400);
            assertThat(refused.error())
                    .isEqualTo("payload: nests arrays and objects more than 100 levels deep, the limit");
            assertThat(api.get("/v1/topics/" + t + "/jobs/deep" + depth).status())
                    .isEqualTo(404);
        }

        var accepted = api.post("/v1/topics/" + t + "/jobs", "{\"id\": \"ok\", \"payload\": " + nested(100) + "}");
        assertThat(accepted.status()).isEqualTo(201);
        var got = api.post("/v1/topics/" + t + "/reservations", json("max", 5, "waitMs", 1000));
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.body()).hasSize(1);
        JsonNode payload = got.body().get(0).get("payload");
        for (int i = 0; i < 99; i++) {
            payload = payload.get(0);
        }
        assertThat(payload.toString()).isEqualTo("[1]");
    }

    @Test
    void aReservationDeadLettersAnUndeliverablePayloadAndDeliversTheRestOfTheBatch() {
        String t = topic();
        Hourglass hourglass = context.getBean(Hourglass.class);
        hourglass.schedule(JobRequest.builder(t).id("deep").payload(nested(999)).build());
        for (int i = 0; i < 3; i++) {
            api.post("/v1/topics/" + t + "/jobs", json("id", "fine" + i, "payload", i));
        }

        var got = api.post("/v1/topics/" + t + "/reservations", json("max", 10, "waitMs", 1000));
        assertThat(got.status()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        got.body().forEach(d -> ids.add(d.get("id").asText()));
        assertThat(ids).containsExactlyInAnyOrder("fine0", "fine1", "fine2");
        for (JsonNode d : got.body()) {
            String ack = "/v1/topics/" + t + "/jobs/" + d.get("id").asText() + "/ack";
            assertThat(api.post(ack, json("receipt", d.get("receipt").asText())).status())
                    .isEqualTo(204);
        }

        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.get(t, "deep").map(JobInfo::state).orElse(null) == JobState.DEAD);
        assertThat(hourglass.get(t, "deep").orElseThrow().lastError())
                .startsWith("payload: nests arrays and objects more than 100 levels deep");
        // Reading the job shows its payload as text rather than failing.
        var job = api.get("/v1/topics/" + t + "/jobs/deep");
        assertThat(job.status()).isEqualTo(200);
        assertThat(job.body().get("payload").asText()).isEqualTo(nested(999));
        assertThat(hourglass.stats(t).active()).isZero();
    }
}
