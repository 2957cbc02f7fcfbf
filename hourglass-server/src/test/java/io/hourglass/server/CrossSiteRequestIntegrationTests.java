package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Without tokens (the development default) a page of another site that the developer opens must not be able to change
 * anything on the local server through the developer's browser, while programs (no Origin) and the server's own
 * dashboard (same origin) go on working.
 */
class CrossSiteRequestIntegrationTests extends ServerTestSupport {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpResponse<String> pause(String topic, String header, String value) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port() + "/v1/topics/" + topic + "/pause"))
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody());
        if (header != null) {
            b.header(header, value);
        }
        try {
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean paused(String topic) {
        return api.get("/v1/topics/" + topic).body().get("paused").asBoolean();
    }

    @Test
    void aPageOfAnotherOriginCannotPauseATopic() throws Exception {
        String topic = topic();
        HttpResponse<String> answer = pause(topic, "Origin", "http://evil.example");
        assertThat(answer.statusCode()).isEqualTo(403);
        assertThat(answer.body()).contains("\"error\"").contains("cross-site request refused");
        assertThat(paused(topic)).isFalse();
    }

    @Test
    void aRequestMarkedCrossSiteOrSameSiteByTheBrowserIsRefused() throws Exception {
        String topic = topic();
        assertThat(pause(topic, "Sec-Fetch-Site", "cross-site").statusCode()).isEqualTo(403);
        // Another port of the same host is another application.
        assertThat(pause(topic, "Sec-Fetch-Site", "same-site").statusCode()).isEqualTo(403);
        assertThat(pause(topic, "Origin", "http://127.0.0.1:" + (port() + 1)).statusCode())
                .isEqualTo(403);
        assertThat(paused(topic)).isFalse();
    }

    @Test
    void theServersOwnPagesAndProgramsWithoutAnOriginGoThrough() throws Exception {
        assertThat(pause(topic(), "Origin", "http://127.0.0.1:" + port()).statusCode())
                .isEqualTo(200);
        assertThat(pause(topic(), "Sec-Fetch-Site", "same-origin").statusCode()).isEqualTo(200);
        String topic = topic();
        assertThat(pause(topic, null, null).statusCode()).isEqualTo(200);
        assertThat(paused(topic)).isTrue();
    }

    @Test
    void readsFromAnotherOriginAreNotRefused() throws Exception {
        HttpRequest read = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + "/v1/topics"))
                .header("Origin", "http://evil.example")
                .GET()
                .build();
        HttpResponse<String> answer = HTTP.send(read, HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        // No CORS header: the other site's page cannot read the answer.
        assertThat(answer.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }
}
