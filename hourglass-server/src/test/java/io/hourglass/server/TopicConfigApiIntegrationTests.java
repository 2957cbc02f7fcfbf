package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code PUT/GET /v1/topics/{topic}/config}: the flow control is stored, read back, refused whole and enforced. */
class TopicConfigApiIntegrationTests extends ServerTestSupport {

    @Test
    void theConfigIsSetReadBackAndEnforcedAndABadOneIsA400ThatChangesNothing() {
        String t = topic();
        String path = "/v1/topics/" + t + "/config";
        var none = api.get(path);
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.body().get("ratePerSecond").asDouble()).isZero();
        assertThat(none.body().get("maxConcurrency").asInt()).isZero();

        var put = api.send("PUT", path, json("ratePerSecond", 10, "maxConcurrency", 2), "application/json");
        assertThat(put.status()).isEqualTo(200);
        assertThat(put.body().get("ratePerSecond").asDouble()).isEqualTo(10.0);
        assertThat(put.body().get("burst").asInt())
                .as("the default burst, resolved")
                .isEqualTo(10);
        assertThat(put.body().get("maxConcurrency").asInt()).isEqualTo(2);
        assertThat(api.get(path).body()).isEqualTo(put.body());

        var negative = api.send("PUT", path, json("maxConcurrency", -1), "application/json");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.error()).startsWith("maxConcurrency:");
        var burstWithoutRate = api.send("PUT", path, json("burst", 5), "application/json");
        assertThat(burstWithoutRate.status()).isEqualTo(400);
        assertThat(burstWithoutRate.error()).startsWith("burst:");
        assertThat(api.get(path).body()).as("unchanged").isEqualTo(put.body());

        for (int i = 0; i < 3; i++) {
            api.post("/v1/topics/" + t + "/jobs", json("id", "j" + i, "payload", i));
        }
        var reserved = api.post("/v1/topics/" + t + "/reservations", json("max", 10, "waitMs", 0));
        assertThat(reserved.status()).isEqualTo(200);
        assertThat(reserved.body()).as("the cap of 2").hasSize(2);
    }
}
