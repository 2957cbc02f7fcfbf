package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Bearer tokens: 401 without a known token, 403 without the right or the topic, each right allowing exactly its
 * endpoints, topic patterns matching exactly or by prefix, and {@code GET /health} open to all.
 */
@ServerSettings("--hourglass.tokens=" + AuthIntegrationTests.TOKENS)
class AuthIntegrationTests extends ServerTestSupport {
    static final String PRODUCER = "producer-0123456789abcdef";
    static final String CONSUMER = "consumer-0123456789abcdef";
    static final String ADMIN = "admin-0123456789abcdef";
    static final String NOTIFY_ADMIN = "notify-admin-0123456789abcdef";
    static final String TOKENS = "[{\"token\": \"" + PRODUCER
            + "\", \"topics\": [\"orders\", \"notify-*\", \"work-*\"],"
            + " \"rights\": [\"produce\"]},"
            + "{\"token\": \"" + CONSUMER + "\", \"topics\": [\"orders\", \"work-*\"], \"rights\": [\"consume\"]},"
            + "{\"token\": \"" + ADMIN + "\", \"topics\": [\"*\"], \"rights\": [\"admin\"]},"
            + "{\"token\": \"" + NOTIFY_ADMIN + "\", \"topics\": [\"notify-*\"], \"rights\": [\"admin\"]}]";

    private static final String JSON = "application/json";
    private static final String LATER = "{\"payload\": 1, \"delayMs\": 3600000}";
    private static final String RECEIPT = "{\"receipt\": \"1-abc\", \"leaseMs\": 1000}";

    /** One request by one token, and whether it may pass authorization. */
    private record Case(String token, String method, String path, String body, boolean allowed) {
        @Override
        public String toString() {
            return nameOf(token) + " " + method + " " + path + (allowed ? " is allowed" : " is forbidden");
        }
    }

    private static String nameOf(String token) {
        return token.substring(0, token.indexOf("-0123"));
    }

    private static Case allowed(String token, String method, String path, String body) {
        return new Case(token, method, path, body, true);
    }

    private static Case forbidden(String token, String method, String path, String body) {
        return new Case(token, method, path, body, false);
    }

    /** Every endpoint, for the given topic. */
    private static List<String[]> endpoints(String topic) {
        String t = "/v1/topics/" + topic;
        return List.of(
                new String[] {"POST", t + "/jobs", LATER},
                new String[] {"GET", t + "/jobs/seed", null},
                new String[] {"POST", t + "/jobs/seed/reschedule", "{\"delayMs\": 3600000}"},
                new String[] {"DELETE", t + "/jobs/missing", null},
                new String[] {"POST", t + "/reservations", "{}"},
                new String[] {"POST", t + "/jobs/seed/ack", RECEIPT},
                new String[] {"POST", t + "/jobs/seed/nack", RECEIPT},
                new String[] {"POST", t + "/jobs/seed/extend", RECEIPT},
                new String[] {"GET", t, null},
                new String[] {"GET", t + "/dead", null},
                new String[] {"POST", t + "/dead/seed/requeue", null},
                new String[] {"DELETE", t + "/dead/missing", null},
                new String[] {"GET", "/v1/topics", null},
                new String[] {"GET", t + "/history", null},
                new String[] {"GET", t + "/jobs?state=scheduled", null},
                new String[] {"POST", t + "/pause", null},
                new String[] {"POST", t + "/resume", null},
                new String[] {"POST", t + "/jobs/seed/run", null},
                new String[] {"POST", t + "/dead/requeue", "{}"},
                new String[] {"DELETE", t + "/dead", null},
                new String[] {"DELETE", t + "/jobs?state=dead", null});
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // produce: POST jobs, GET job, reschedule, DELETE job; on "orders" and "notify-*" only
        for (String topic : List.of("orders", "notify-sms")) {
            List<String[]> all = endpoints(topic);
            for (int i = 0; i < all.size(); i++) {
                String[] e = all.get(i);
                cases.add(new Case(PRODUCER, e[0], e[1], e[2], i < 4));
            }
        }
        // consume: reservations, ack, nack, extend, GET job; on "orders" only
        List<String[]> orders = endpoints("orders");
        for (int i = 0; i < orders.size(); i++) {
            String[] e = orders.get(i);
            cases.add(new Case(CONSUMER, e[0], e[1], e[2], i == 1 || (i >= 4 && i <= 7)));
        }
        // admin on "*": everything, everywhere
        for (String topic : List.of("orders", "billing", "notify-sms")) {
            endpoints(topic).forEach(e -> cases.add(allowed(ADMIN, e[0], e[1], e[2])));
        }
        // admin on "notify-*": everything there, nothing elsewhere (the listings show only its topics)
        endpoints("notify-sms").forEach(e -> cases.add(allowed(NOTIFY_ADMIN, e[0], e[1], e[2])));
        endpoints("orders").stream()
                .filter(e -> !e[1].equals("/v1/topics"))
                .forEach(e -> cases.add(forbidden(NOTIFY_ADMIN, e[0], e[1], e[2])));
        // topics: exact names match exactly; a prefix pattern needs the whole prefix
        cases.add(forbidden(PRODUCER, "POST", "/v1/topics/billing/jobs", LATER));
        cases.add(forbidden(PRODUCER, "POST", "/v1/topics/orders-eu/jobs", LATER));
        cases.add(forbidden(PRODUCER, "POST", "/v1/topics/notify/jobs", LATER));
        cases.add(forbidden(CONSUMER, "POST", "/v1/topics/notify-sms/reservations", "{}"));
        cases.add(forbidden(CONSUMER, "GET", "/v1/topics/billing/jobs/seed", null));
        return cases.stream();
    }

    @TestFactory
    Stream<DynamicTest> eachRightAllowsItsEndpointsOnItsTopicsAndNothingElse() {
        for (String topic : List.of("orders", "billing", "notify-sms")) {
            assertThat(api.withToken(ADMIN)
                            .post(
                                    "/v1/topics/" + topic + "/jobs",
                                    json("id", "seed", "payload", 1, "delayMs", 3_600_000))
                            .status())
                    .isEqualTo(201);
        }
        return cases().map(c -> dynamicTest(c.toString(), () -> {
            var response =
                    api.withToken(c.token()).send(c.method(), c.path(), c.body(), c.body() == null ? null : JSON);

            if (c.allowed()) {
                assertThat(response.status())
                        .as(response.raw().body())
                        .isNotIn(401, 403)
                        .isLessThan(500);
            } else {
                assertThat(response.status()).as(response.raw().body()).isEqualTo(403);
                assertThat(response.error()).startsWith("Authorization:");
                assertThat(response.raw().headers().firstValue("WWW-Authenticate"))
                        .isEmpty();
            }
        }));
    }

    @Test
    void theTopicListingShowsOnlyTheTopicsOfTheToken() {
        String work = "work-" + topic();
        String notify = "notify-" + topic();
        api.withToken(ADMIN).post("/v1/topics/" + work + "/jobs", LATER);
        api.withToken(ADMIN).post("/v1/topics/" + notify + "/jobs", LATER);

        JsonNode all = api.withToken(ADMIN).get("/v1/topics").body();
        JsonNode notifyOnly = api.withToken(NOTIFY_ADMIN).get("/v1/topics").body();

        assertThat(all.findValuesAsText("topic")).contains(notify, work);
        assertThat(notifyOnly.findValuesAsText("topic")).contains(notify).allMatch(t -> t.startsWith("notify-"));
    }

    @TestFactory
    Stream<DynamicTest> aRequestWithoutAKnownTokenIsUnauthorizedWhateverItAsks() {
        List<String[]> requests = new ArrayList<>(endpoints("orders"));
        requests.add(new String[] {"POST", "/v1/no-such-path", "{}"});
        requests.add(new String[] {"POST", "/health", null});
        List<String> headers = new ArrayList<>();
        headers.add(null);
        headers.addAll(List.of(
                "Bearer not-a-configured-token-0000",
                "Bearer",
                "Bearer ",
                "Basic YWRtaW46YWRtaW4=",
                ADMIN,
                "Bearer " + ADMIN + "x",
                "Bearer " + ADMIN.substring(1)));
        return headers.stream().flatMap(header -> requests.stream()
                .map(r -> dynamicTest(
                        (header == null ? "no Authorization" : "Authorization: " + header) + ", " + r[0] + " " + r[1],
                        () -> {
                            Api caller = header == null ? api : api.withAuthorization(header);
                            RedisSnapshot before = snapshot();

                            var response = caller.send(r[0], r[1], r[2], r[2] == null ? null : JSON);

                            assertThat(response.status())
                                    .as(response.raw().body())
                                    .isEqualTo(401);
                            assertThat(response.error()).startsWith("Authorization:");
                            assertThat(response.raw().headers().firstValue("WWW-Authenticate"))
                                    .hasValueSatisfying(
                                            value -> assertThat(value).startsWith("Bearer"));
                            assertThat(snapshot().keys()).isEqualTo(before.keys());
                        })));
    }

    @Test
    void anUnknownTokenIsToldItIsInvalid() {
        var response = api.withToken("not-a-configured-token-0000").get("/v1/topics");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.raw().headers().firstValue("WWW-Authenticate"))
                .hasValue("Bearer realm=\"hourglass\", error=\"invalid_token\"");
        assertThat(api.get("/v1/topics").raw().headers().firstValue("WWW-Authenticate"))
                .hasValue("Bearer realm=\"hourglass\"");
    }

    @Test
    void theBearerSchemeIsCaseInsensitive() {
        assertThat(api.withAuthorization("bearer " + ADMIN).get("/v1/topics").status())
                .isEqualTo(200);
        assertThat(api.withAuthorization("BEARER  " + ADMIN).get("/v1/topics").status())
                .isEqualTo(200);
    }

    @Test
    void healthIsOpenWithoutAToken() {
        var health = api.get("/health");

        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body().get("status").asText()).isEqualTo("UP");
        assertThat(api.withToken("not-a-configured-token-0000").get("/health").status())
                .isEqualTo(200);
    }

    @Test
    void aForbiddenRequestNamesTheMissingRightAndTopicAndWritesNothing() {
        RedisSnapshot before = snapshot();

        var response = api.withToken(CONSUMER).post("/v1/topics/orders/jobs", LATER);

        assertThat(response.status()).isEqualTo(403);
        assertThat(response.error()).isEqualTo("Authorization: this token has no produce right on topic 'orders'");
        assertThat(snapshot().keys()).isEqualTo(before.keys());
    }

    @Test
    void tokensWithTheRightsDoTheirWork() {
        String jobs = "/v1/topics/work-" + topic();
        var created = api.withToken(PRODUCER).post(jobs + "/jobs", json("id", "w-1", "payload", 42));
        assertThat(created.status()).isEqualTo(201);

        var reserved = api.withToken(CONSUMER).post(jobs + "/reservations", json("waitMs", 2000));
        assertThat(reserved.body()).as(reserved.raw().body()).hasSize(1);
        String receipt = reserved.body().get(0).get("receipt").asText();
        assertThat(api.withToken(CONSUMER)
                        .post(jobs + "/jobs/w-1/ack", json("receipt", receipt))
                        .status())
                .isEqualTo(204);
        assertThat(api.withToken(PRODUCER).get(jobs + "/jobs/w-1").status()).isEqualTo(404);
    }

    @Test
    void theOperatorsActionsNeedTheAdminRightOnTheTopicAndChangeNothingWhenRefused() {
        String orders = "orders";
        String notify = "notify-" + topic();
        for (String t : List.of(orders, notify)) {
            api.withToken(ADMIN).post("/v1/topics/" + t + "/jobs", json("id", "kept", "payload", 1, "delayMs", 60_000));
        }
        RedisSnapshot before = snapshot();

        assertThat(api.post("/v1/topics/" + orders + "/pause", null, null).status())
                .isEqualTo(401);
        assertThat(api.withToken(PRODUCER)
                        .post("/v1/topics/" + orders + "/pause", null, null)
                        .status())
                .isEqualTo(403);
        assertThat(api.withToken(CONSUMER)
                        .delete("/v1/topics/" + orders + "/jobs?state=scheduled")
                        .status())
                .isEqualTo(403);
        assertThat(api.withToken(PRODUCER)
                        .post("/v1/topics/" + orders + "/jobs/kept/run", null, null)
                        .status())
                .isEqualTo(403);
        var otherTopic = api.withToken(NOTIFY_ADMIN).delete("/v1/topics/" + orders + "/jobs?state=scheduled");
        assertThat(otherTopic.status()).isEqualTo(403);
        assertThat(otherTopic.error()).isEqualTo("Authorization: this token has no admin right on topic 'orders'");
        assertThat(api.withToken(NOTIFY_ADMIN)
                        .get("/v1/topics/" + orders + "/jobs?state=scheduled")
                        .status())
                .isEqualTo(403);
        assertThat(snapshot().keys()).isEqualTo(before.keys());

        var paused = api.withToken(NOTIFY_ADMIN).post("/v1/topics/" + notify + "/pause", null, null);
        assertThat(paused.status()).isEqualTo(200);
        assertThat(paused.body().get("paused").asBoolean()).isTrue();
        var listed = api.withToken(NOTIFY_ADMIN).get("/v1/topics/" + notify + "/jobs?state=scheduled");
        assertThat(listed.body().get("jobs").findValuesAsText("id")).containsExactly("kept");
        assertThat(api.withToken(NOTIFY_ADMIN)
                        .delete("/v1/topics/" + notify + "/jobs?state=scheduled")
                        .body()
                        .get("purged")
                        .asLong())
                .isEqualTo(1);
        assertThat(api.withToken(ADMIN)
                        .get("/v1/topics/" + orders + "/jobs/kept")
                        .status())
                .isEqualTo(200);
    }
}
