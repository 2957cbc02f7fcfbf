package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP fields of expiry ({@code expiresAt}, {@code ttlMs}, {@code onExpiry}) and failure callbacks
 * ({@code failureCallbackUrl}): an expired job is never handed to a pull worker, and a job that dies gets its signed
 * failure notice. Bad values of the fields are rows of {@link BadRequestIntegrationTests}.
 */
@ServerSettings({
    "--hourglass.insecure=true",
    "--hourglass.callback-secret=" + ExpiryAndFailureCallbackIntegrationTests.SECRET,
    "--hourglass.callback-allow=127.0.0.1"
})
class ExpiryAndFailureCallbackIntegrationTests extends ServerTestSupport {
    static final String SECRET = "whsec-failure-0123456789";

    private CallbackReceiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = new CallbackReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private static JsonNode reserve(String topic) {
        return api.post("/v1/topics/" + topic + "/reservations", json("max", 10))
                .body();
    }

    @Test
    void anExpiredJobIsDeadLetteredOrDroppedAndNeverReserved() throws InterruptedException {
        String t = topic();
        String jobs = "/v1/topics/" + t + "/jobs";
        assertThat(api.post(jobs, json("id", "ttl", "payload", 1, "ttlMs", 50)).status())
                .isEqualTo(201);
        String soon = Instant.now().plusMillis(100).toString();
        assertThat(api.post(jobs, json("id", "drop", "payload", 2, "expiresAt", soon, "onExpiry", "drop"))
                        .status())
                .isEqualTo(201);
        assertThat(api.post(jobs, json("id", "fine", "payload", 3, "delayMs", 200, "ttlMs", 3_600_000))
                        .status())
                .isEqualTo(201);
        Thread.sleep(300);

        assertThat(reserve(t)).extracting(j -> j.get("id").asText()).containsExactly("fine");
        JsonNode dead = api.get(jobs + "/ttl").body();
        assertThat(dead.get("state").asText()).isEqualTo("DEAD");
        assertThat(dead.get("lastError").asText()).isEqualTo("expired");
        assertThat(api.get(jobs + "/drop").status()).isEqualTo(404);
        JsonNode history = api.get("/v1/topics/" + t + "/history").body();
        assertThat(history.get("expired").asLong()).isEqualTo(2);
        assertThat(history.get("minutes").findValues("failed").stream()
                        .mapToLong(JsonNode::asLong)
                        .sum())
                .isEqualTo(2);
    }

    @Test
    void aJobThatDiesPostsItsSignedFailureNotice() throws Exception {
        String t = topic();
        receiver.answer("/hooks/fail", 500);
        String failureUrl = receiver.url("/hooks/failed");
        var created = api.post(
                "/v1/topics/" + t + "/jobs",
                json(
                        "id",
                        "doomed",
                        "payload",
                        Map.of("order", 42),
                        "maxAttempts",
                        1,
                        "callbackUrl",
                        receiver.url("/hooks/fail"),
                        "failureCallbackUrl",
                        failureUrl));
        assertThat(created.status()).as(created.raw().body()).isEqualTo(201);

        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> !receiver.callsOf("doomed:failure").isEmpty());
        CallbackReceiver.Call notice = receiver.callsOf("doomed:failure").get(0);
        assertThat(notice.path()).isEqualTo("/hooks/failed");
        assertThat(notice.topic()).isEqualTo(t);
        assertThat(CallbackSignature.verify(SECRET, notice, failureUrl, System.currentTimeMillis()))
                .isTrue();
        JsonNode body = new ObjectMapper().readTree(notice.body());
        assertThat(body.get("event").asText()).isEqualTo("dead");
        assertThat(body.get("id").asText()).isEqualTo("doomed");
        assertThat(body.get("topic").asText()).isEqualTo(t);
        assertThat(body.get("reason").asText()).isEqualTo("failed");
        assertThat(body.get("attempts").asInt()).isEqualTo(1);
        assertThat(body.get("lastError").asText()).contains("HTTP 500");
        assertThat(new ObjectMapper().readTree(body.get("payload").asText()))
                .isEqualTo(new ObjectMapper().readTree("{\"order\":42}"));
        assertThat(Instant.parse(body.get("dueAt").asText()))
                .isEqualTo(Instant.parse(created.body().get("dueAt").asText()));
        assertThat(api.get("/v1/topics/" + t + "/jobs/doomed")
                        .body()
                        .get("state")
                        .asText())
                .isEqualTo("DEAD");
    }
}
