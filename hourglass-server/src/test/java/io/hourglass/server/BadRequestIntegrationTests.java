package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of bad input is a 4xx whose body names the field at fault; none is a 5xx. */
class BadRequestIntegrationTests extends ServerTestSupport {
  private static final String JOBS = "/v1/topics/bad-input/jobs";
  private static final String JSON = "application/json";

  static Stream<Arguments> badRequests() {
    return Stream.of(
        bad("malformed JSON", JOBS, "{\"payload\": 1,", JSON, 400, "body:"),
        bad("trailing garbage", JOBS, "{\"payload\": 1} x", JSON, 400, "body:"),
        bad("not an object", JOBS, "[1, 2]", JSON, 400, "body:"),
        bad("empty body", JOBS, null, JSON, 400, "body:"),
        bad("duplicate key", JOBS, "{\"payload\": 1, \"payload\": 2}", JSON, 400, "body:"),
        bad("missing payload", JOBS, "{\"id\": \"a\"}", JSON, 400, "payload:"),
        bad("unknown property", JOBS, "{\"payload\": 1, \"colour\": \"red\"}", JSON, 400, "colour:"),
        bad("delay as string", JOBS, "{\"payload\": 1, \"delayMs\": \"100\"}", JSON, 400, "delayMs:"),
        bad("delay as fraction", JOBS, "{\"payload\": 1, \"delayMs\": 1.5}", JSON, 400, "delayMs:"),
        bad("negative delay", JOBS, "{\"payload\": 1, \"delayMs\": -1}", JSON, 400, "delayMs:"),
        bad("delay beyond the limit", JOBS, "{\"payload\": 1, \"delayMs\": 999999999999999}", JSON, 400,
            "delayMs:"),
        bad("both delay and runAt", JOBS, "{\"payload\": 1, \"delayMs\": 5, \"runAt\": \"2030-01-01T00:00:00Z\"}",
            JSON, 400, "delayMs:"),
        bad("runAt not a date", JOBS, "{\"payload\": 1, \"runAt\": \"tomorrow\"}", JSON, 400, "runAt:"),
        bad("id as number", JOBS, "{\"payload\": 1, \"id\": 5}", JSON, 400, "id:"),
        bad("id with a space", JOBS, "{\"payload\": 1, \"id\": \"a b\"}", JSON, 400, "id:"),
        bad("id too long", JOBS, "{\"payload\": 1, \"id\": \"" + "x".repeat(129) + "\"}", JSON, 400, "id:"),
        bad("topic with a space", "/v1/topics/bad%20topic/jobs", "{\"payload\": 1}", JSON, 400, "topic:"),
        bad("topic starting with a dot", "/v1/topics/.hidden/jobs", "{\"payload\": 1}", JSON, 400, "topic:"),
        bad("ftp callback", JOBS, "{\"payload\": 1, \"callbackUrl\": \"ftp://host/x\"}", JSON, 400,
            "callbackUrl:"),
        bad("relative callback", JOBS, "{\"payload\": 1, \"callbackUrl\": \"/hook\"}", JSON, 400, "callbackUrl:"),
        bad("unparsable callback", JOBS, "{\"payload\": 1, \"callbackUrl\": \"http://a b\"}", JSON, 400,
            "callbackUrl:"),
        bad("zero attempts", JOBS, "{\"payload\": 1, \"maxAttempts\": 0}", JSON, 400, "maxAttempts:"),
        bad("attempts beyond int", JOBS, "{\"payload\": 1, \"maxAttempts\": 99999999999}", JSON, 400,
            "maxAttempts:"),
        bad("backoff not an array", JOBS, "{\"payload\": 1, \"backoffMs\": 5}", JSON, 400, "backoffMs:"),
        bad("backoff empty", JOBS, "{\"payload\": 1, \"backoffMs\": []}", JSON, 400, "backoffMs:"),
        bad("backoff negative step", JOBS, "{\"payload\": 1, \"backoffMs\": [5, -1]}", JSON, 400, "backoffMs[1]:"),
        bad("backoff step a string", JOBS, "{\"payload\": 1, \"backoffMs\": [5, \"x\"]}", JSON, 400,
            "backoffMs[1]:"),
        bad("negative lease", JOBS, "{\"payload\": 1, \"leaseMs\": -1}", JSON, 400, "leaseMs:"),
        bad("unknown onConflict", JOBS + "?onConflict=overwrite", "{\"payload\": 1}", JSON, 400, "onConflict:"),
        bad("text body", JOBS, "payload", "text/plain", 415, "Content-Type:"),
        bad("no content type", JOBS, "{\"payload\": 1}", null, 415, "Content-Type:"),
        bad("reschedule without time", JOBS + "/a/reschedule", "{}", JSON, 400, "delayMs:"),
        bad("reschedule with both", JOBS + "/a/reschedule", "{\"delayMs\": 1, \"runAt\": \"2030-01-01T00:00:00Z\"}",
            JSON, 400, "delayMs:"),
        bad("reschedule negative", JOBS + "/a/reschedule", "{\"delayMs\": -5}", JSON, 400, "delayMs:"),
        bad("reserve zero", "/v1/topics/bad-input/reservations", "{\"max\": 0}", JSON, 400, "max:"),
        bad("reserve too many", "/v1/topics/bad-input/reservations", "{\"max\": 1001}", JSON, 400, "max:"),
        bad("wait too long", "/v1/topics/bad-input/reservations", "{\"waitMs\": 300001}", JSON, 400, "waitMs:"),
        bad("wait negative", "/v1/topics/bad-input/reservations", "{\"waitMs\": -1}", JSON, 400, "waitMs:"),
        bad("reserve lease zero", "/v1/topics/bad-input/reservations", "{\"leaseMs\": 0}", JSON, 400, "leaseMs:"),
        bad("reserve unknown property", "/v1/topics/bad-input/reservations", "{\"count\": 3}", JSON, 400,
            "count:"),
        bad("ack without receipt", JOBS + "/a/ack", "{}", JSON, 400, "receipt:"),
        bad("ack receipt as number", JOBS + "/a/ack", "{\"receipt\": 5}", JSON, 400, "receipt:"),
        bad("nack negative retry", JOBS + "/a/nack", "{\"receipt\": \"1\", \"retryDelayMs\": -1}", JSON, 400,
            "retryDelayMs:"),
        bad("extend without lease", JOBS + "/a/extend", "{\"receipt\": \"1\"}", JSON, 400, "leaseMs:"),
        bad("extend lease too long", JOBS + "/a/extend", "{\"receipt\": \"1\", \"leaseMs\": 86400001}", JSON, 400,
            "leaseMs:"));
  }

  private static Arguments bad(String what, String path, String body, String contentType, int status,
      String errorPrefix) {
    return Arguments.of(what, path, body, contentType, status, errorPrefix);
  }

  @ParameterizedTest(name = "{0} -> {4}")
  @MethodSource("badRequests")
  void badInputIsAClientErrorNamingTheField(String what, String path, String body, String contentType,
      int status, String errorPrefix) {
    var response = api.post(path, body, contentType);

    assertThat(response.status()).as(what + ": " + response.raw().body()).isEqualTo(status);
    assertThat(response.error()).as(what).startsWith(errorPrefix);
  }

  @ParameterizedTest(name = "GET {0} -> 400")
  @MethodSource("badQueries")
  void badQueryParametersAreClientErrors(String path, String errorPrefix) {
    var response = api.get(path);

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.error()).startsWith(errorPrefix);
  }

  static Stream<Arguments> badQueries() {
    return Stream.of(
        Arguments.of("/v1/topics/bad-input/dead?limit=x", "limit:"),
        Arguments.of("/v1/topics/bad-input/dead?limit=0", "limit:"),
        Arguments.of("/v1/topics/bad-input/dead?offset=-1", "offset:"),
        Arguments.of("/v1/topics/bad-input/jobs/a%20b", "id:"),
        Arguments.of("/v1/topics/bad%21/jobs/a", "topic:"));
  }
}
