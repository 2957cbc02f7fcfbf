package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.server.api.RequestLimits;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every kind of bad input is a 4xx whose body names the field at fault, none is a 5xx, and none changes anything in
 * Redis: each row compares a dump of every key before and after its request; the invariant checker runs after all.
 */
@ServerSettings({
    "--hourglass.insecure=true",
    "--hourglass.max-payload-bytes=" + BadRequestIntegrationTests.MAX_PAYLOAD,
    "--hourglass.max-delay-ms=" + BadRequestIntegrationTests.MAX_DELAY
})
class BadRequestIntegrationTests extends ServerTestSupport {
    static final int MAX_PAYLOAD = 1024;
    static final long MAX_DELAY = 86_400_000;
    private static final String TOPIC = "/v1/topics/bad-input";
    private static final String JOBS = TOPIC + "/jobs";
    private static final String JSON = "application/json";
    /** Placeholders in a row's body, replaced by receipts of the fixture's deliveries. */
    private static final String STALE = "{stale}";

    private static final String FOREIGN = "{foreign}";

    /**
     * The state the rows start from, in a topic of its own: job {@code active} leased for the second time (its first
     * receipt is stale), job {@code other} leased (its receipt is foreign to {@code active}), and job {@code waiting}
     * scheduled an hour ahead.
     *
     * @param topic the row's topic, which the rows' {@code bad-input} stands for
     * @param staleReceipt the first receipt of {@code active}
     * @param foreignReceipt the receipt of {@code other}
     */
    private record Fixture(String topic, String staleReceipt, String foreignReceipt) {

        static Fixture create() {
            String topic = "bad-input-" + ServerTestSupport.topic();
            String jobs = "/v1/topics/" + topic + "/jobs";
            assertThat(api.post(jobs, json("id", "active", "payload", 1)).status())
                    .isEqualTo(201);
            String stale = reserveOne(topic).get("receipt").asText();
            assertThat(api.post(jobs + "/active/nack", json("receipt", stale, "retryDelayMs", 0))
                            .status())
                    .isEqualTo(204);
            assertThat(reserveOne(topic).get("id").asText()).isEqualTo("active");
            assertThat(api.post(jobs, json("id", "other", "payload", 2)).status())
                    .isEqualTo(201);
            String foreign = reserveOne(topic).get("receipt").asText();
            assertThat(api.post(jobs, json("id", "waiting", "payload", 3, "delayMs", 3_600_000))
                            .status())
                    .isEqualTo(201);
            return new Fixture(topic, stale, foreign);
        }

        private static JsonNode reserveOne(String topic) {
            var reserved = api.post("/v1/topics/" + topic + "/reservations", json("max", 1, "leaseMs", 600_000));
            assertThat(reserved.body()).as(reserved.raw().body()).hasSize(1);
            return reserved.body().get(0);
        }

        String path(String path) {
            return path.replace("/bad-input/", "/" + topic + "/");
        }

        String body(String body) {
            return body == null ? null : body.replace(STALE, staleReceipt).replace(FOREIGN, foreignReceipt);
        }
    }

    /** One bad request and the answer it must get. */
    private record Row(
            String what, String method, String path, String body, String contentType, int status, String errorPrefix) {}

    static Stream<Row> badRequests() {
        String runAtBeyondTheLimit = Instant.now().plus(Duration.ofDays(2)).toString();
        return Stream.of(
                post("malformed JSON", JOBS, "{\"payload\": 1,", 400, "body:"),
                post("trailing garbage", JOBS, "{\"payload\": 1} x", 400, "body:"),
                post("not an object", JOBS, "[1, 2]", 400, "body:"),
                post("empty body", JOBS, null, 400, "body:"),
                post("duplicate key", JOBS, "{\"payload\": 1, \"payload\": 2}", 400, "body:"),
                post("missing payload", JOBS, "{\"id\": \"a\"}", 400, "payload:"),
                post("unknown property", JOBS, "{\"payload\": 1, \"colour\": \"red\"}", 400, "colour:"),
                post("delay as string", JOBS, "{\"payload\": 1, \"delayMs\": \"100\"}", 400, "delayMs:"),
                post("delay as fraction", JOBS, "{\"payload\": 1, \"delayMs\": 1.5}", 400, "delayMs:"),
                post(
                        "delay beyond a long",
                        JOBS,
                        "{\"payload\": 1, \"delayMs\": 99999999999999999999}",
                        400,
                        "delayMs:"),
                post("negative delay", JOBS, "{\"payload\": 1, \"delayMs\": -1}", 400, "delayMs:"),
                post(
                        "delay above --max-delay-ms",
                        JOBS,
                        "{\"payload\": 1, \"delayMs\": " + (MAX_DELAY + 1) + "}",
                        400,
                        "delayMs:"),
                post(
                        "delay far beyond the limit",
                        JOBS,
                        "{\"payload\": 1, \"delayMs\": 999999999999999}",
                        400,
                        "delayMs:"),
                post(
                        "both delay and runAt",
                        JOBS,
                        "{\"payload\": 1, \"delayMs\": 5, \"runAt\": \"2030-01-01T00:00:00Z\"}",
                        400,
                        "delayMs:"),
                post("runAt not a date", JOBS, "{\"payload\": 1, \"runAt\": \"tomorrow\"}", 400, "runAt:"),
                post(
                        "runAt beyond --max-delay-ms",
                        JOBS,
                        "{\"payload\": 1, \"runAt\": \"" + runAtBeyondTheLimit + "\"}",
                        400,
                        "runAt:"),
                post("runAt before 1970", JOBS, "{\"payload\": 1, \"runAt\": \"1969-12-31T23:59:59Z\"}", 400, "runAt:"),
                post(
                        "runAt in year 1000000000",
                        JOBS,
                        "{\"payload\": 1, \"runAt\": \"+1000000000-01-01T00:00:00Z\"}",
                        400,
                        "runAt:"),
                post("id as number", JOBS, "{\"payload\": 1, \"id\": 5}", 400, "id:"),
                post("empty id", JOBS, "{\"payload\": 1, \"id\": \"\"}", 400, "id:"),
                post("id with a space", JOBS, "{\"payload\": 1, \"id\": \"a b\"}", 400, "id:"),
                post("id with a brace (hash tag)", JOBS, "{\"payload\": 1, \"id\": \"a}b\"}", 400, "id:"),
                post("id with a pipe (record header)", JOBS, "{\"payload\": 1, \"id\": \"a|b\"}", 400, "id:"),
                post("id with a newline", JOBS, "{\"payload\": 1, \"id\": \"a\\nb\"}", 400, "id:"),
                post("id not ASCII", JOBS, "{\"payload\": 1, \"id\": \"caf\u00e9\"}", 400, "id:"),
                post("id too long", JOBS, "{\"payload\": 1, \"id\": \"" + "x".repeat(129) + "\"}", 400, "id:"),
                post("topic with a space", "/v1/topics/bad%20topic/jobs", "{\"payload\": 1}", 400, "topic:"),
                post("topic starting with a dot", "/v1/topics/.hidden/jobs", "{\"payload\": 1}", 400, "topic:"),
                post("topic with a brace (hash tag)", "/v1/topics/a%7Bb%7D/jobs", "{\"payload\": 1}", 400, "topic:"),
                post("topic with a colon", "/v1/topics/a:b/jobs", "{\"payload\": 1}", 400, "topic:"),
                post("topic too long", "/v1/topics/" + "t".repeat(101) + "/jobs", "{\"payload\": 1}", 400, "topic:"),
                post(
                        "payload above --max-payload-bytes",
                        JOBS,
                        json("payload", "x".repeat(MAX_PAYLOAD)),
                        413,
                        "payload:"),
                post(
                        "body far above the limit",
                        JOBS,
                        json("payload", "x".repeat(MAX_PAYLOAD + 70_000)),
                        413,
                        "payload:"),
                post("ftp callback", JOBS, "{\"payload\": 1, \"callbackUrl\": \"ftp://host/x\"}", 400, "callbackUrl:"),
                post(
                        "file callback",
                        JOBS,
                        "{\"payload\": 1, \"callbackUrl\": \"file:///etc/passwd\"}",
                        400,
                        "callbackUrl:"),
                post("relative callback", JOBS, "{\"payload\": 1, \"callbackUrl\": \"/hook\"}", 400, "callbackUrl:"),
                post(
                        "unparsable callback",
                        JOBS,
                        "{\"payload\": 1, \"callbackUrl\": \"http://a b\"}",
                        400,
                        "callbackUrl:"),
                post(
                        "callback with a pipe",
                        JOBS,
                        "{\"payload\": 1, \"callbackUrl\": \"http://h/a|b\"}",
                        400,
                        "callbackUrl:"),
                post(
                        "both expiresAt and ttlMs",
                        JOBS,
                        "{\"payload\": 1, \"ttlMs\": 5, \"expiresAt\": \"2030-01-01T00:00:00Z\"}",
                        400,
                        "expiresAt:"),
                post("expiresAt not a date", JOBS, "{\"payload\": 1, \"expiresAt\": \"soon\"}", 400, "expiresAt:"),
                post(
                        "expiresAt not after the due time",
                        JOBS,
                        "{\"payload\": 1, \"expiresAt\": \"2020-01-01T00:00:00Z\"}",
                        400,
                        "expiresAt:"),
                post("zero ttl", JOBS, "{\"payload\": 1, \"ttlMs\": 0}", 400, "ttlMs:"),
                post(
                        "ttl above --max-delay-ms",
                        JOBS,
                        "{\"payload\": 1, \"ttlMs\": " + (MAX_DELAY + 1) + "}",
                        400,
                        "ttlMs:"),
                post("unknown onExpiry", JOBS, "{\"payload\": 1, \"onExpiry\": \"archive\"}", 400, "onExpiry:"),
                post("priority above 5", JOBS, "{\"payload\": 1, \"priority\": 6}", 400, "priority:"),
                post("priority below -5", JOBS, "{\"payload\": 1, \"priority\": -6}", 400, "priority:"),
                post(
                        "zero dispatch deadline",
                        JOBS,
                        "{\"payload\": 1, \"callbackUrl\": \"https://example.com/cb\", \"dispatchDeadlineMs\": 0}",
                        400,
                        "dispatchDeadlineMs:"),
                post(
                        "dispatch deadline above the callbacks' maximum",
                        JOBS,
                        "{\"payload\": 1, \"callbackUrl\": \"https://example.com/cb\","
                                + " \"dispatchDeadlineMs\": 1800001}",
                        400,
                        "dispatchDeadlineMs:"),
                post(
                        "dispatch deadline without a callback",
                        JOBS,
                        "{\"payload\": 1, \"dispatchDeadlineMs\": 5000}",
                        400,
                        "dispatchDeadline:"),
                post(
                        "ftp failure callback",
                        JOBS,
                        "{\"payload\": 1, \"failureCallbackUrl\": \"ftp://host/x\"}",
                        400,
                        "failureCallbackUrl:"),
                post(
                        "failure callback to loopback",
                        JOBS,
                        "{\"payload\": 1, \"failureCallbackUrl\": \"http://127.0.0.1/failed\"}",
                        400,
                        "failureCallbackUrl:"),
                post("id of a failure notice", JOBS, "{\"payload\": 1, \"id\": \"a:failure\"}", 400, "id:"),
                post("zero attempts", JOBS, "{\"payload\": 1, \"maxAttempts\": 0}", 400, "maxAttempts:"),
                post(
                        "attempts beyond int",
                        JOBS,
                        "{\"payload\": 1, \"maxAttempts\": 99999999999}",
                        400,
                        "maxAttempts:"),
                post("backoff not an array", JOBS, "{\"payload\": 1, \"backoffMs\": 5}", 400, "backoffMs:"),
                post("backoff empty", JOBS, "{\"payload\": 1, \"backoffMs\": []}", 400, "backoffMs:"),
                post("backoff negative step", JOBS, "{\"payload\": 1, \"backoffMs\": [5, -1]}", 400, "backoffMs[1]:"),
                post(
                        "backoff step a string",
                        JOBS,
                        "{\"payload\": 1, \"backoffMs\": [5, \"x\"]}",
                        400,
                        "backoffMs[1]:"),
                post("backoff step null", JOBS, "{\"payload\": 1, \"backoffMs\": [5, null]}", 400, "backoffMs[1]:"),
                post(
                        "backoff step above --max-delay-ms",
                        JOBS,
                        "{\"payload\": 1, \"backoffMs\": [" + (MAX_DELAY + 1) + "]}",
                        400,
                        "backoffMs[0]:"),
                post("negative lease", JOBS, "{\"payload\": 1, \"leaseMs\": -1}", 400, "leaseMs:"),
                post("unknown onConflict", JOBS + "?onConflict=overwrite", "{\"payload\": 1}", 400, "onConflict:"),
                post("existing id", JOBS, "{\"payload\": 1, \"id\": \"waiting\"}", 409, "id:"),
                request("text body", "POST", JOBS, "payload", "text/plain", 415, "Content-Type:"),
                request("XML body", "POST", JOBS, "<payload/>", "application/xml", 415, "Content-Type:"),
                request("no content type", "POST", JOBS, "{\"payload\": 1}", null, 415, "Content-Type:"),
                request(
                        "unknown charset",
                        "POST",
                        JOBS,
                        "{\"payload\": 1}",
                        "application/json;charset=klingon",
                        415,
                        "Content-Type:"),
                post("reschedule without time", JOBS + "/waiting/reschedule", "{}", 400, "delayMs:"),
                post(
                        "reschedule with both",
                        JOBS + "/waiting/reschedule",
                        "{\"delayMs\": 1, \"runAt\": \"2030-01-01T00:00:00Z\"}",
                        400,
                        "delayMs:"),
                post("reschedule negative", JOBS + "/waiting/reschedule", "{\"delayMs\": -5}", 400, "delayMs:"),
                post(
                        "reschedule above --max-delay-ms",
                        JOBS + "/waiting/reschedule",
                        "{\"delayMs\": " + (MAX_DELAY + 1) + "}",
                        400,
                        "delayMs:"),
                post("reschedule of a missing job", JOBS + "/missing/reschedule", "{\"delayMs\": 5}", 404, "id:"),
                post("reserve zero", TOPIC + "/reservations", "{\"max\": 0}", 400, "max:"),
                post("reserve too many", TOPIC + "/reservations", "{\"max\": 1001}", 400, "max:"),
                post("wait too long", TOPIC + "/reservations", "{\"waitMs\": 300001}", 400, "waitMs:"),
                post("wait negative", TOPIC + "/reservations", "{\"waitMs\": -1}", 400, "waitMs:"),
                post("reserve lease zero", TOPIC + "/reservations", "{\"leaseMs\": 0}", 400, "leaseMs:"),
                post("reserve unknown property", TOPIC + "/reservations", "{\"count\": 3}", 400, "count:"),
                request("reserve as text", "POST", TOPIC + "/reservations", "{}", "text/plain", 415, "Content-Type:"),
                post("ack without receipt", JOBS + "/active/ack", "{}", 400, "receipt:"),
                post("ack receipt as number", JOBS + "/active/ack", "{\"receipt\": 5}", 400, "receipt:"),
                post(
                        "ack malformed receipt",
                        JOBS + "/active/ack",
                        "{\"receipt\": \"not a receipt\"}",
                        400,
                        "receipt:"),
                post(
                        "ack receipt too long",
                        JOBS + "/active/ack",
                        "{\"receipt\": \"" + "9".repeat(65) + "\"}",
                        400,
                        "receipt:"),
                post("ack stale receipt", JOBS + "/active/ack", "{\"receipt\": \"" + STALE + "\"}", 409, "receipt:"),
                post(
                        "ack another job's receipt",
                        JOBS + "/active/ack",
                        "{\"receipt\": \"" + FOREIGN + "\"}",
                        409,
                        "receipt:"),
                post(
                        "ack a job not leased",
                        JOBS + "/waiting/ack",
                        "{\"receipt\": \"" + FOREIGN + "\"}",
                        409,
                        "receipt:"),
                post("ack a missing job", JOBS + "/missing/ack", "{\"receipt\": \"" + FOREIGN + "\"}", 409, "receipt:"),
                request(
                        "ack as form",
                        "POST",
                        JOBS + "/active/ack",
                        "receipt=1",
                        "application/x-www-form-urlencoded",
                        415,
                        "Content-Type:"),
                post("nack malformed receipt", JOBS + "/active/nack", "{\"receipt\": \"\"}", 400, "receipt:"),
                post(
                        "nack stale receipt",
                        JOBS + "/active/nack",
                        "{\"receipt\": \"" + STALE + "\", \"error\": \"x\"}",
                        409,
                        "receipt:"),
                post(
                        "nack another job's receipt",
                        JOBS + "/active/nack",
                        "{\"receipt\": \"" + FOREIGN + "\"}",
                        409,
                        "receipt:"),
                post(
                        "nack negative retry",
                        JOBS + "/active/nack",
                        "{\"receipt\": \"" + FOREIGN + "\", \"retryDelayMs\": -1}",
                        400,
                        "retryDelayMs:"),
                post(
                        "nack retry above --max-delay-ms",
                        JOBS + "/active/nack",
                        "{\"receipt\": \"" + FOREIGN + "\", \"retryDelayMs\": " + (MAX_DELAY + 1) + "}",
                        400,
                        "retryDelayMs:"),
                post(
                        "extend malformed receipt",
                        JOBS + "/active/extend",
                        "{\"receipt\": \"a\\tb\", \"leaseMs\": 1000}",
                        400,
                        "receipt:"),
                post(
                        "extend stale receipt",
                        JOBS + "/active/extend",
                        "{\"receipt\": \"" + STALE + "\", \"leaseMs\": 1000}",
                        409,
                        "receipt:"),
                post(
                        "extend another job's receipt",
                        JOBS + "/active/extend",
                        "{\"receipt\": \"" + FOREIGN + "\", \"leaseMs\": 1000}",
                        409,
                        "receipt:"),
                post(
                        "extend without lease",
                        JOBS + "/active/extend",
                        "{\"receipt\": \"" + STALE + "\"}",
                        400,
                        "leaseMs:"),
                post(
                        "extend lease too long",
                        JOBS + "/active/extend",
                        "{\"receipt\": \"" + STALE + "\", \"leaseMs\": 86400001}",
                        400,
                        "leaseMs:"),
                request(
                        "requeue of a scheduled job",
                        "POST",
                        TOPIC + "/dead/waiting/requeue",
                        null,
                        null,
                        409,
                        "state:"),
                request("requeue of an active job", "POST", TOPIC + "/dead/active/requeue", null, null, 409, "state:"),
                request("requeue of a missing job", "POST", TOPIC + "/dead/missing/requeue", null, null, 404, "id:"),
                request(
                        "delete a live job as a dead letter",
                        "DELETE",
                        TOPIC + "/dead/waiting",
                        null,
                        null,
                        404,
                        "id:"),
                request("cancel a missing job", "DELETE", JOBS + "/missing", null, null, 404, "id:"),
                request("cancel with a bad id", "DELETE", JOBS + "/a%7Cb", null, null, 400, "id:"),
                request("wrong method", "PUT", JOBS + "/waiting", "{\"payload\": 1}", JSON, 405, "method:"),
                request("unknown path", "POST", "/v1/jobs", "{\"payload\": 1}", JSON, 404, "path:"));
    }

    private static Row post(String what, String path, String body, int status, String errorPrefix) {
        return request(what, "POST", path, body, JSON, status, errorPrefix);
    }

    private static Row get(String what, String path, int status, String errorPrefix) {
        return request(what, "GET", path, null, null, status, errorPrefix);
    }

    private static Row request(
            String what, String method, String path, String body, String contentType, int status, String errorPrefix) {
        return new Row(what, method, path, body, contentType, status, errorPrefix);
    }

    static Stream<Row> badQueries() {
        return Stream.of(
                get("limit not a number", TOPIC + "/dead?limit=x", 400, "limit:"),
                get("limit zero", TOPIC + "/dead?limit=0", 400, "limit:"),
                get("negative offset", TOPIC + "/dead?offset=-1", 400, "offset:"),
                get("limit beyond int", TOPIC + "/dead?limit=99999999999", 400, "limit:"),
                get("get with a bad id", JOBS + "/a%20b", 400, "id:"),
                get("get with a long id", JOBS + "/" + "i".repeat(129), 400, "id:"),
                get("get with a bad topic", "/v1/topics/bad%21/jobs/a", 400, "topic:"),
                get("get a missing job", JOBS + "/missing", 404, "id:"));
    }

    /**
     * One dynamic test per row, all starting from one fixture (a row that changed it would fail), each proving that
     * Redis is unchanged; then the invariant checker. (Dynamic rather than parameterized tests: the test kit's flush
     * and check around every invocation would cost more than the rows.)
     */
    @TestFactory
    Stream<DynamicTest> badInputIsAClientErrorNamingTheFieldAndWritesNothing() {
        Fixture fixture = Fixture.create();
        Stream<DynamicTest> rows = Stream.concat(badRequests(), badQueries())
                .map(row -> dynamicTest(row.what() + " -> " + row.status(), () -> {
                    RedisSnapshot before = snapshot();

                    var response = api.send(
                            row.method(), fixture.path(row.path()), fixture.body(row.body()), row.contentType());

                    assertThat(response.status())
                            .as(row.what() + ": " + response.raw().body())
                            .isEqualTo(row.status());
                    assertThat(response.error()).as(row.what()).startsWith(row.errorPrefix());
                    assertThat(snapshot().keys())
                            .as(row.what() + ": Redis changed")
                            .isEqualTo(before.keys());
                }));
        return Stream.concat(rows, Stream.of(dynamicTest("the invariants hold after every row", () -> assertThat(
                        snapshot().violations())
                .isEmpty())));
    }

    @Test
    void aRunAtInThePastIsAcceptedAndDueNow() {
        String jobs = "/v1/topics/" + topic() + "/jobs";
        var created = api.post(jobs, json("id", "late", "payload", 1, "runAt", "2001-01-01T00:00:00Z"));

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().get("state").asText()).isEqualTo("READY");
        assertThat(api.get(jobs + "/late").body().get("state").asText()).isEqualTo("READY");
    }

    @Test
    void aPayloadExactlyAtTheLimitIsAccepted() {
        String atTheLimit = "x".repeat(MAX_PAYLOAD - 2);
        String jobs = "/v1/topics/" + topic() + "/jobs";

        var created = api.post(jobs, json("id", "big", "payload", atTheLimit));

        assertThat(created.status()).as(created.raw().body()).isEqualTo(201);
        assertThat(api.get(jobs + "/big").body().get("payload").asText()).isEqualTo(atTheLimit);
    }

    @Test
    void aHugeBodyIsRefusedWith413BeforeItIsSent() throws Exception {
        RedisSnapshot before = snapshot();
        try (RawHttp http = new RawHttp(port())) {
            String response = http.send("POST /v1/topics/huge/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Content-Type: application/json\r\nContent-Length:"
                            + " 1073741824\r\n\r\n{\"payload\": \"xxxx")
                    .readResponse();

            assertThat(response).startsWith("HTTP/1.1 413").contains("\"error\":\"payload: ");
        }
        assertThat(snapshot().keys()).isEqualTo(before.keys());
    }

    @Test
    void aChunkedBodyIsCutOffWith413AsSoonAsItPassesTheLimit() throws Exception {
        RedisSnapshot before = snapshot();
        try (RawHttp http = new RawHttp(port())) {
            http.send("POST /v1/topics/huge/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n")
                    .chunk("{\"payload\": \"");
            for (long sent = 0; sent <= MAX_PAYLOAD + RequestLimits.BODY_OVERHEAD_BYTES; sent += 8192) {
                http.chunk("x".repeat(8192));
            }

            assertThat(http.readResponse()).startsWith("HTTP/1.1 413").contains("\"error\":\"payload: ");
        }
        assertThat(snapshot().keys()).isEqualTo(before.keys());
    }

    @Test
    void theJobHistoryOfAServerWithoutOneIsA404NamingTheFlag() {
        Api.Response answer = api.get("/v1/history?topic=bad-input");
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.error()).startsWith("history:").contains("--history-jdbc-url");
    }

    @Test
    void theColdTierOfAServerWithoutOneIsConfiguredFalseAndTakesNoParameter() {
        Api.Response answer = api.get("/v1/tier");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.raw().body()).isEqualTo("{\"configured\":false}");
        Api.Response parameter = api.get("/v1/tier?topic=bad-input");
        assertThat(parameter.status()).isEqualTo(400);
        assertThat(parameter.error()).startsWith("topic: unknown parameter");
    }
}
