package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** With {@code --idempotency-window=0}, an id is free again as soon as its job is gone, as before the window. */
@ServerSettings({"--hourglass.insecure=true", "--hourglass.idempotency-window=0"})
class IdempotencyWindowOffIntegrationTests extends ServerTestSupport {

    @Test
    void aCancelledIdCanBeScheduledAgainAtOnce() {
        String path = "/v1/topics/" + topic() + "/jobs";
        assertThat(api.post(path, json("id", "once", "delayMs", 60_000, "payload", 1))
                        .status())
                .isEqualTo(201);
        assertThat(api.delete(path + "/once").status()).isEqualTo(204);

        var again = api.post(path, json("id", "once", "payload", 2));
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.body().get("outcome").asText()).isEqualTo("CREATED");
    }
}
