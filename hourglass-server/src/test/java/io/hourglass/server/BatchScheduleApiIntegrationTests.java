package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code POST /v1/topics/{topic}/jobs:batch}: one outcome per job in order, a bad item refused alone. */
class BatchScheduleApiIntegrationTests extends ServerTestSupport {

    private static String batch(List<?> jobs) {
        return json("jobs", jobs);
    }

    @Test
    void eachJobGetsItsOwnOutcomeInOrderAndABadOneIsRefusedAlone() {
        String t = topic();
        api.post("/v1/topics/" + t + "/jobs", json("id", "taken", "payload", 0));
        List<Object> jobs = new ArrayList<>();
        jobs.add(Map.of("id", "a", "payload", Map.of("n", 1)));
        jobs.add(Map.of("id", "no-payload"));
        jobs.add(Map.of("id", "taken", "payload", 2));
        jobs.add(Map.of("id", "b", "payload", 3, "delayMs", 60_000));
        jobs.add(Map.of("id", "bad id!", "payload", 4));

        var answer = api.post("/v1/topics/" + t + "/jobs:batch", batch(jobs));
        assertThat(answer.status()).isEqualTo(200);
        JsonNode results = answer.body().get("results");
        assertThat(results).hasSize(5);
        assertThat(results.get(0).get("status").asInt()).isEqualTo(201);
        assertThat(results.get(0).get("job").get("id").asText()).isEqualTo("a");
        assertThat(results.get(0).get("job").get("state").asText()).isEqualTo("READY");
        assertThat(results.get(1).get("status").asInt()).isEqualTo(400);
        assertThat(results.get(1).get("error").asText()).startsWith("payload:");
        assertThat(results.get(2).get("status").asInt()).isEqualTo(409);
        assertThat(results.get(3).get("status").asInt()).isEqualTo(201);
        assertThat(results.get(3).get("job").get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(results.get(4).get("status").asInt()).isEqualTo(400);
        assertThat(results.get(4).get("error").asText()).startsWith("id:");

        assertThat(api.get("/v1/topics/" + t + "/jobs/a")
                        .body()
                        .get("payload")
                        .get("n")
                        .asInt())
                .isEqualTo(1);
        assertThat(api.get("/v1/topics/" + t + "/jobs/taken")
                        .body()
                        .get("payload")
                        .asInt())
                .as("kept as it was")
                .isZero();
        assertThat(api.get("/v1/topics/" + t).body().get("scheduled").asLong()).isEqualTo(1);
        assertThat(api.get("/v1/topics/" + t).body().get("ready").asLong()).isEqualTo(2);
    }

    @Test
    void aPriorityFromEitherEndpointOrdersTheReservationsAndIsShown() {
        String t = topic();
        String jobs = "/v1/topics/" + t + "/jobs";
        assertThat(api.post(jobs, json("id", "low", "payload", 1, "priority", -2))
                        .status())
                .isEqualTo(201);
        assertThat(api.post(jobs, json("id", "plain", "payload", 2)).status()).isEqualTo(201);
        var answer = api.post(
                jobs + ":batch",
                batch(List.of(
                        Map.of("id", "high", "payload", 3, "priority", 5),
                        Map.of("id", "too-high", "payload", 4, "priority", 6))));
        JsonNode results = answer.body().get("results");
        assertThat(results.get(0).get("status").asInt()).isEqualTo(201);
        assertThat(results.get(1).get("status").asInt()).isEqualTo(400);
        assertThat(results.get(1).get("error").asText()).startsWith("priority:");

        assertThat(api.get(jobs + "/high").body().get("priority").asInt()).isEqualTo(5);
        assertThat(api.get(jobs + "/plain").body().get("priority").asInt()).isZero();
        JsonNode reserved =
                api.post("/v1/topics/" + t + "/reservations", json("max", 10)).body();
        assertThat(reserved).extracting(j -> j.get("id").asText()).containsExactly("high", "plain", "low");
    }

    @Test
    void aThousandJobsGoInOneRequestAndMoreAreRefusedWhole() {
        String t = topic();
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            jobs.add(Map.of("id", "j" + i, "payload", i));
        }
        var answer = api.post("/v1/topics/" + t + "/jobs:batch", batch(jobs));
        assertThat(answer.status()).isEqualTo(200);
        JsonNode results = answer.body().get("results");
        assertThat(results).hasSize(1000);
        for (int i = 0; i < 1000; i++) {
            assertThat(results.get(i).get("job").get("id").asText()).isEqualTo("j" + i);
            assertThat(results.get(i).get("status").asInt()).isEqualTo(201);
        }
        assertThat(api.get("/v1/topics/" + t).body().get("ready").asLong()).isEqualTo(1000);

        String other = topic();
        jobs.add(Map.of("id", "one-too-many", "payload", 0));
        var tooMany = api.post("/v1/topics/" + other + "/jobs:batch", batch(jobs));
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.error()).startsWith("jobs:");
        assertThat(api.get("/v1/topics/" + other + "/jobs/j0").status()).isEqualTo(404);
        assertThat(api.post("/v1/topics/" + other + "/jobs:batch", json("jobs", List.of()))
                        .status())
                .isEqualTo(400);
    }
}
