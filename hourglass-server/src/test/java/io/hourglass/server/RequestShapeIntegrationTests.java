package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Requests the bad-input sweep found answered silently or without the API's JSON error body. */
class RequestShapeIntegrationTests extends ServerTestSupport {

    @Test
    void anUnknownCharsetIsNamedIn415() {
        var answer = api.post("/v1/topics/" + topic() + "/jobs", "{\"payload\": 1}", "application/json; charset=bogus");
        assertThat(answer.status()).isEqualTo(415);
        assertThat(answer.error())
                .startsWith("Content-Type: unsupported charset 'bogus'")
                .doesNotContain("got none");
        var other = api.post("/v1/topics/" + topic() + "/jobs", "payload", "text/plain");
        assertThat(other.error()).isEqualTo("Content-Type: must be application/json, got 'text/plain'");
        var none = api.post("/v1/topics/" + topic() + "/jobs", "{\"payload\": 1}", null);
        assertThat(none.error()).isEqualTo("Content-Type: must be application/json, got none");
    }

    @Test
    void traceIsRefusedWith405AndTheJsonErrorBodyAndEchoesNothing() throws Exception {
        try (RawHttp http = new RawHttp(port())) {
            String answer = http.send("TRACE /v1/topics/t/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Authorization: Bearer trace-secret-0123456789\r\n\r\n")
                    .readResponse();
            assertThat(answer).startsWith("HTTP/1.1 405");
            assertThat(answer).contains("{\"error\":\"method: TRACE is not supported here\"}");
            assertThat(answer).doesNotContain("trace-secret-0123456789");
        }
    }

    @Test
    void pathParametersAreRefusedWith400AndScheduleNothing() {
        String topic = topic();
        var answer = api.post("/v1/topics/" + topic + ";x=1/jobs", json("id", "a", "payload", 1));
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.error()).startsWith("path: path parameters");
        assertThat(api.get("/v1/topics/" + topic + "/jobs/a").status()).isEqualTo(404);
        assertThat(api.get("/v1/topics/" + topic + "/jobs/a;v=2").status()).isEqualTo(400);
    }
}
