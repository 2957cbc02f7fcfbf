package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.spring.listener.HourglassCallbackDelivery;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random and mutated requests (seeded, so a failure replays) against every endpoint, the operators' ones
 * (listings with real and broken cursors, pause, run now, bulk requeue and delete, purge) included: random methods,
 * paths, content types, tokens and bodies, mostly near-valid so that they reach deep into validation. No answer is ever
 * a 5xx, every error is JSON naming a field, and afterwards the invariant checker finds no violation and Redis holds no
 * job but those the fuzz was told it created.
 */
@ServerSettings({
    "--hourglass.tokens=" + ApiFuzzIntegrationTests.TOKENS,
    "--hourglass.max-payload-bytes=4096",
    "--hourglass.max-delay-ms=86400000",
    "--hourglass.callback-allow=127.0.0.1"
})
class ApiFuzzIntegrationTests extends ServerTestSupport {
    static final String ADMIN = "fuzz-admin-0123456789";
    static final String PRODUCER = "fuzz-producer-0123456789";
    static final String TOKENS = "[{\"token\": \"" + ADMIN + "\", \"topics\": [\"fuzz-*\"], \"rights\": [\"admin\"]},"
            + "{\"token\": \"" + PRODUCER + "\", \"topics\": [\"fuzz-a\"], \"rights\": [\"produce\"]}]";
    private static final int REQUESTS = 3000;
    private static final long SEED = 20261122L;
    /** "field: message"; the field as the client wrote it, whatever its characters. */
    private static final Pattern FIELD_NAMED = Pattern.compile(".+: .+", Pattern.DOTALL);

    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"};
    private static final String[] TOPICS = {
        "fuzz-a",
        "fuzz-a",
        "fuzz-b",
        "fuzz-b",
        "other",
        "fuzz-",
        ".x",
        "a:b",
        "a%20b",
        "%7Bx%7D",
        "%00",
        "%2F",
        "%25",
        "..",
        "fuzz-a;x=1",
        "caf%C3%A9",
        "t".repeat(101),
        "-"
    };
    private static final String[] IDS = {
        "j1", "j2", "j3", "j1", "", "a%7Cb", "x".repeat(129), "%0A", "%7Bx%7D", "a:b", "a.b_c-d", "%2E%2E"
    };
    private static final String[] CONTENT_TYPES = {
        null,
        "text/plain",
        "application/xml",
        "application/json; charset=utf-8",
        "application/json;charset=klingon",
        "application/json;charset=",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "*/*",
        "application/*",
        "garbage",
        ";;;",
        "application/merge-patch+json"
    };
    private static final String[] AUTHORIZATIONS = {
        "Bearer " + PRODUCER, null, "Bearer nope-0000000000000000", "Basic YTpi", "Bearer", "bearer " + ADMIN
    };
    /** JSON literals that break types, ranges and formats. */
    private static final String[] EDGE_VALUES = {
        "null",
        "true",
        "false",
        "0",
        "-1",
        "1",
        "2147483648",
        "9223372036854775807",
        "-9223372036854775808",
        "99999999999999999999",
        "1.5",
        "1e308",
        "-0",
        "\"\"",
        "\"x\"",
        "\"5\"",
        "\"2030-01-01T00:00:00Z\"",
        "\"1970-01-01T00:00:00Z\"",
        "\"+1000000000-01-01T00:00:00Z\"",
        "\"-999999999-01-01T00:00:00Z\"",
        "[]",
        "{}",
        "[1,2]",
        "[-1]",
        "[null]",
        "{\"a\":1}",
        "\"\\ud800\"",
        "\"\\u0000\"",
        "\"http://127.0.0.1:9/x\"",
        "\"http://10.0.0.1/x\"",
        "\"" + "y".repeat(5000) + "\"",
        "[".repeat(1500) + "]".repeat(1500),
        "\"a|b\\n\""
    };

    /** The stream of requests to every endpoint. */
    private final Random requests = new Random(SEED);
    /**
     * The stream of the operators' requests, sent between the others; its own, so that adding operators' endpoints left
     * the sequence of the other requests as it was.
     */
    private final Random operators = new Random(SEED + 1);
    /** The stream the request being made draws from. */
    private Random random = requests;

    private final List<String> receipts = new ArrayList<>(List.of("1-abc", "999999-ffff"));
    private final List<String> cursors = new ArrayList<>(List.of("U0NIRURVTEVEOjE6ajE", "REVBRDoxOmox"));
    private final Set<String> created = new HashSet<>();
    private final Map<Integer, Integer> statuses = new TreeMap<>();
    private final Map<Integer, Integer> operatorStatuses = new TreeMap<>();

    @Test
    void noRequestIsAServerErrorAndNothingButAcceptedJobsIsWritten() {
        for (int i = 0; i < REQUESTS; i++) {
            sendAndCheck(i, next());
            random = operators;
            FuzzRequest operator = chance(30) ? next() : null;
            random = requests;
            if (operator != null) {
                operatorStatuses.merge(sendAndCheck(i, operator), 1, Integer::sum);
            }
        }
        context.getBean(HourglassCallbackDelivery.class).stop();

        RedisSnapshot after = snapshot();
        assertThat(after.violations()).isEmpty();
        assertThat(after.jobs()).as("jobs in Redis").isSubsetOf(created);
        assertThat(statuses).as("statuses seen").containsKeys(200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 415);
        assertThat(operatorStatuses).as("operators' statuses seen").containsKeys(200, 400, 401, 403, 404, 409);
    }

    /** Sends one request and checks its answer: never a 5xx, every error JSON naming a field; returns its status. */
    private int sendAndCheck(int i, FuzzRequest request) {
        Api caller = request.authorization() == null ? api : api.withAuthorization(request.authorization());

        Api.Response response;
        try {
            response = caller.send(request.method(), request.path(), request.body(), request.contentType());
        } catch (AssertionError notJson) {
            throw new AssertionError("request " + i + ": " + request + ": " + notJson.getMessage(), notJson);
        }

        statuses.merge(response.status(), 1, Integer::sum);
        assertThat(response.status())
                .as("request %d: %s -> %s", i, request, response.raw().body())
                .isLessThan(500);
        if (response.status() >= 400 && !request.method().equals("HEAD")) {
            assertThat(response.error())
                    .as("request %d: %s", i, request)
                    .isNotNull()
                    .matches(FIELD_NAMED);
        }
        remember(request, response);
        return response.status();
    }

    /** Keeps the ids of created jobs, and receipts to ack with later. */
    private void remember(FuzzRequest request, Api.Response response) {
        JsonNode body = response.body();
        if (body == null) {
            return;
        }
        if (request.method().equals("POST")
                && request.path().matches("/v1/topics/[^/]+/jobs(\\?.*)?")
                && (response.status() == 201 || response.status() == 200)
                && body.has("id")) {
            created.add(NAMESPACE + "/" + body.get("topic").asText() + "/"
                    + body.get("id").asText());
        }
        if (body.hasNonNull("nextCursor")) {
            cursors.add(body.get("nextCursor").asText());
        }
        if (request.path().endsWith("/reservations") && response.status() == 200 && body.isArray()) {
            body.forEach(delivery -> receipts.add(delivery.get("receipt").asText()));
        }
    }

    /** One request of the fuzz. */
    private record FuzzRequest(String method, String path, String body, String contentType, String authorization) {
        @Override
        public String toString() {
            String shown = body == null ? "" : body.length() > 200 ? body.substring(0, 200) + "..." : body;
            return method + " " + path + " [" + contentType + ", " + authorization + "] " + shown;
        }
    }

    private FuzzRequest next() {
        String topic = pick(TOPICS);
        String id = pick(IDS);
        String t = "/v1/topics/" + topic;
        int endpoint = random == operators ? 14 + random.nextInt(2) : random.nextInt(14);
        String method;
        String path;
        Supplier<Map<String, String>> body;
        switch (endpoint) {
            case 0, 1, 2 -> {
                method = "POST";
                path = t + "/jobs" + (chance(15) ? "?onConflict=" + pick("keep", "replace", "reject", "x", "") : "");
                body = this::scheduleBody;
            }
            case 3 -> {
                method = "GET";
                path = t + "/jobs/" + id;
                body = () -> null;
            }
            case 4 -> {
                method = "DELETE";
                path = t + "/jobs/" + id;
                body = () -> null;
            }
            case 5 -> {
                method = "POST";
                path = t + "/jobs/" + id + "/reschedule";
                body = () -> fields(
                        "delayMs", pick("0", "10", "3600000"), "runAt", chance(30) ? "\"2001-01-01T00:00:00Z\"" : null);
            }
            case 6, 7 -> {
                method = "POST";
                path = t + "/reservations";
                body = () -> fields(
                        "max",
                        pick("1", "2", "5"),
                        "waitMs",
                        pick("0", "1", null),
                        "leaseMs",
                        pick("1000", "600000", null));
            }
            case 8, 9 -> {
                method = "POST";
                path = t + "/jobs/" + id + "/" + pick("ack", "nack", "extend");
                body = () -> fields(
                        "receipt",
                        "\"" + receipts.get(random.nextInt(receipts.size())) + "\"",
                        "leaseMs",
                        path.endsWith("extend") ? pick("1000", "60000") : null,
                        "error",
                        path.endsWith("nack") && chance(50) ? "\"boom\"" : null,
                        "retryDelayMs",
                        path.endsWith("nack") && chance(50) ? pick("0", "100", "3600000") : null);
            }
            case 10 -> {
                method = "GET";
                path = chance(50)
                        ? "/v1/topics"
                        : t
                                + (chance(50)
                                        ? ""
                                        : "/dead"
                                                + (chance(50)
                                                        ? "?offset=" + pick("0", "1", "-1", "x") + "&limit="
                                                                + pick("1", "100", "0", "1001", "99999999999")
                                                        : ""));
                body = () -> null;
            }
            case 11 -> {
                method = chance(50) ? "POST" : "DELETE";
                path = t + "/dead/" + id + (method.equals("POST") ? "/requeue" : "");
                body = () -> null;
            }
            case 12 -> {
                method = "GET";
                path = pick(
                        "/health",
                        "/v1",
                        "/dashboard/missing.js",
                        "/v1/topics/",
                        "/error",
                        "/v1/topics/" + topic + "/jobs/" + id + "/x");
                body = () -> null;
            }
            case 14 -> {
                method = "GET";
                path = chance(20)
                        ? t + "/history"
                        : t + "/jobs"
                                + query(
                                        "state",
                                        pick("scheduled", "ready", "active", "dead", "DEAD", "", "x"),
                                        "limit",
                                        pick("1", "2", "50", "1000", "0", "1001", "-1", "x", "99999999999"),
                                        "cursor",
                                        pick(cursors.get(random.nextInt(cursors.size())), "", "x", "%25", "a%3Ab"));
                body = () -> null;
            }
            case 15 -> {
                String ids = pick("j1", "j2", "j3", "", "a%7Cb", "x".repeat(129));
                String[][] actions = {
                    {"POST", t + "/pause"},
                    {"POST", t + "/resume"},
                    {"POST", t + "/resume"},
                    {"POST", t + "/jobs/" + id + "/run"},
                    {"POST", t + "/dead/requeue"},
                    {"DELETE", t + "/dead" + query("id", ids, "id", pick("j1", "j2"), pick("ids", "x", "id"), "j3")},
                    {"DELETE", t + "/jobs" + query("state", pick("scheduled", "ready", "active", "dead", "x", ""))}
                };
                String[] action = pick(actions);
                method = action[0];
                path = action[1];
                body = path.endsWith("/requeue")
                        ? () -> fields(
                                "ids",
                                chance(30)
                                        ? null
                                        : pick(
                                                "[\"j1\"]",
                                                "[\"j1\",\"j2\",\"j1\"]",
                                                "[]",
                                                "null",
                                                "[1]",
                                                "[null]",
                                                "\"j1\"",
                                                "{}"))
                        : () -> null;
            }
            default -> {
                method = pick(METHODS);
                path = pick(t + "/jobs", t + "/jobs/" + id, t + "/reservations", t + "/dead", "/v1/topics", "/health");
                body = this::scheduleBody;
            }
        }
        if (chance(8)) {
            method = pick(METHODS);
        }
        String json = mutate(body.get());
        if (path.endsWith("/reservations") && json != null) {
            // Keep the run fast: a reservation must not long-poll for seconds.
            json = json.replaceAll("\"waitMs\"\\s*:\\s*\\d{3,}", "\"waitMs\":0");
        }
        String contentType = json == null && chance(50) ? null : chance(85) ? "application/json" : pick(CONTENT_TYPES);
        String authorization = chance(80) ? "Bearer " + ADMIN : pick(AUTHORIZATIONS);
        return new FuzzRequest(method, path, json, contentType, authorization);
    }

    private Map<String, String> scheduleBody() {
        return fields(
                "id",
                chance(70) ? "\"" + pick("j1", "j2", "j3", "j4", "a b", "") + "\"" : null,
                "payload",
                chance(95) ? pick("1", "\"p\"", "{\"order\":42}", "[1,2,3]", "null") : null,
                "delayMs",
                chance(50) ? pick("0", "10", "3600000", "86400001", "-1") : null,
                "runAt",
                chance(10) ? pick("\"2001-01-01T00:00:00Z\"", "\"2099-01-01T00:00:00Z\"") : null,
                "callbackUrl",
                chance(15) ? pick("\"http://127.0.0.1:9/hook\"", "\"http://10.0.0.1/x\"", "\"ftp://x/y\"") : null,
                "maxAttempts",
                chance(20) ? pick("1", "2", "3", "0") : null,
                "backoffMs",
                chance(15) ? pick("[10]", "[10,20]", "[]", "[-1]") : null,
                "leaseMs",
                chance(15) ? pick("1000", "600000", "0") : null);
    }

    /** @return a query string of some of the given name and value pairs (each kept at random), or "" */
    private String query(String... namesAndValues) {
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (chance(75)) {
                q.append(q.isEmpty() ? "?" : "&")
                        .append(namesAndValues[i])
                        .append('=')
                        .append(namesAndValues[i + 1]);
            }
        }
        return q.toString();
    }

    /** @return the fields whose value is not null, in order */
    private static Map<String, String> fields(String... namesAndJson) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndJson.length; i += 2) {
            if (namesAndJson[i + 1] != null) {
                fields.put(namesAndJson[i], namesAndJson[i + 1]);
            }
        }
        return fields;
    }

    /** @return the body as JSON text: valid, or broken in one of several ways */
    private String mutate(Map<String, String> fields) {
        if (fields == null) {
            return chance(90) ? null : pick("{}", "x", "");
        }
        int kind = random.nextInt(10);
        if (kind == 0 && !fields.isEmpty()) {
            List<String> names = new ArrayList<>(fields.keySet());
            fields.put(names.get(random.nextInt(names.size())), pick(EDGE_VALUES));
        } else if (kind == 1 && !fields.isEmpty()) {
            List<String> names = new ArrayList<>(fields.keySet());
            fields.remove(names.get(random.nextInt(names.size())));
        } else if (kind == 2) {
            fields.put(pick("colour", "payload ", "Payload", "delayms", "__proto__", ""), pick(EDGE_VALUES));
        }
        StringBuilder json = new StringBuilder("{");
        fields.forEach((name, value) -> json.append(json.length() > 1 ? "," : "")
                .append('"')
                .append(name)
                .append("\":")
                .append(value));
        String text = json.append('}').toString();
        return switch (kind) {
            case 3 -> mutateCharacters(text);
            case 4 -> text.substring(0, random.nextInt(text.length()));
            case 5 -> randomText();
            case 6 -> pick("[" + text + "]", text + text, "\"" + text + "\"", "null", "", text + "}");
            default -> text;
        };
    }

    private String mutateCharacters(String text) {
        StringBuilder s = new StringBuilder(text);
        for (int n = 1 + random.nextInt(3); n > 0 && s.length() > 0; n--) {
            int at = random.nextInt(s.length());
            switch (random.nextInt(3)) {
                case 0 -> s.deleteCharAt(at);
                case 1 -> s.insert(at, randomChar());
                default -> s.setCharAt(at, randomChar());
            }
        }
        return s.toString();
    }

    private String randomText() {
        StringBuilder s = new StringBuilder();
        for (int n = random.nextInt(200); n > 0; n--) {
            s.append(randomChar());
        }
        return s.toString();
    }

    private char randomChar() {
        String specials = "{}[]\":,\\ 0123456789-.eE+tfnul\u00e9\u20ac\ud83d";
        return chance(80) ? specials.charAt(random.nextInt(specials.length())) : (char) (random.nextInt(0x2FF) + 1);
    }

    private boolean chance(int percent) {
        return random.nextInt(100) < percent;
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[random.nextInt(values.length)];
    }
}
