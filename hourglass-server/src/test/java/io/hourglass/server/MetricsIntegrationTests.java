package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics}: the Prometheus scrape with the hourglass meters (counters, per-topic gauges, the lateness
 * histogram), JVM and process metrics; it needs a token with the right {@code metrics} (or {@code admin}), while the
 * probes and the API's description stay open.
 */
@ServerSettings({
    "--hourglass.tokens=" + MetricsIntegrationTests.TOKENS,
    "--hourglass.metrics.refresh-interval=200ms",
    // The test's receiver is on this machine, which callbacks may reach only when allowed.
    "--hourglass.callback-allow=127.0.0.1"
})
class MetricsIntegrationTests extends ServerTestSupport {
    static final String PRODUCER = "producer-0123456789abcdef";
    static final String SCRAPER = "scraper-0123456789abcdef";
    static final String ADMIN = "admin-0123456789abcdef";
    static final String TOKENS = "[{\"token\": \"" + PRODUCER + "\", \"topics\": [\"*\"], \"rights\": [\"produce\"]},"
            + "{\"token\": \"" + SCRAPER + "\", \"topics\": [\"none-\"], \"rights\": [\"metrics\"]},"
            + "{\"token\": \"" + ADMIN + "\", \"topics\": [\"*\"], \"rights\": [\"admin\"]}]";

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theScrapeCarriesTheHourglassMetersJvmAndProcessMetrics() throws Exception {
        String t = topic();
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            Api producer = api.withToken(PRODUCER);
            assertThat(producer.post(
                                    "/v1/topics/" + t + "/jobs",
                                    json("id", "called", "payload", 1, "callbackUrl", receiver.url("/hook")))
                            .status())
                    .isEqualTo(201);
            assertThat(producer.post(
                                    "/v1/topics/" + t + "/jobs",
                                    json("id", "later", "payload", 2, "delayMs", 3_600_000))
                            .status())
                    .isEqualTo(201);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !receiver.callsOf("called").isEmpty());
        }
        String topicTag = "topic=\"" + t + "\"";

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String scrape = scrape(SCRAPER).body();
            assertThat(value(scrape, "hourglass_jobs_acked_jobs_total{" + topicTag + "}"))
                    .hasValue(1.0);
            assertThat(value(scrape, "hourglass_topic_jobs{state=\"scheduled\"," + topicTag + "}"))
                    .hasValue(1.0);
        });
        String scrape = scrape(SCRAPER).body();

        assertThat(value(scrape, "hourglass_jobs_scheduled_jobs_total{" + topicTag + "}"))
                .hasValue(2.0);
        assertThat(value(scrape, "hourglass_jobs_delivered_jobs_total{" + topicTag + "}"))
                .hasValue(1.0);
        assertThat(value(scrape, "hourglass_jobs_retried_jobs_total{" + topicTag + "}"))
                .hasValue(0.0);
        assertThat(value(scrape, "hourglass_jobs_dead_lettered_jobs_total{" + topicTag + "}"))
                .hasValue(0.0);
        assertThat(value(scrape, "hourglass_topic_jobs{state=\"ready\"," + topicTag + "}"))
                .hasValue(0.0);
        assertThat(value(scrape, "hourglass_topic_latency_seconds{" + topicTag + "}"))
                .hasValue(0.0);
        assertThat(value(scrape, "hourglass_topic_paused{" + topicTag + "}")).hasValue(0.0);
        assertThat(value(scrape, "hourglass_topic_dead_letters_trimmed_jobs_total{" + topicTag + "}"))
                .hasValue(0.0);
        assertThat(scrape)
                .contains("# TYPE hourglass_jobs_scheduled_jobs_total counter")
                .contains("# TYPE hourglass_topic_jobs gauge")
                .contains("# TYPE hourglass_topic_latency_seconds gauge")
                .contains("# TYPE hourglass_topic_paused gauge")
                .contains("# TYPE hourglass_topic_dead_letters_trimmed_jobs_total counter")
                .contains("# TYPE hourglass_job_lateness_seconds histogram")
                .contains("# TYPE hourglass_job_handler_duration_seconds summary");
        assertThat(value(scrape, "hourglass_job_lateness_seconds_count{" + topicTag + "}"))
                .hasValue(1.0);
        assertThat(value(scrape, "hourglass_job_lateness_seconds_bucket{" + topicTag + ",le=\"+Inf\"}"))
                .hasValue(1.0);
        assertThat(scrape.lines().filter(l -> l.startsWith("hourglass_job_lateness_seconds_bucket{" + topicTag)))
                .hasSizeGreaterThan(10);
        assertThat(scrape)
                .containsPattern("(?m)^jvm_memory_used_bytes\\{")
                .containsPattern("(?m)^jvm_threads_live_threads ")
                .containsPattern("(?m)^process_cpu_usage ")
                .containsPattern("(?m)^process_uptime_seconds ");
    }

    @Test
    void pullWorkersDeliveriesAcksAndNacksAreCounted() throws Exception {
        String t = topic();
        Api admin = api.withToken(ADMIN);
        for (String id : new String[] {"acked", "retried", "dead"}) {
            assertThat(admin.post(
                                    "/v1/topics/" + t + "/jobs",
                                    json("id", id, "payload", 1, "maxAttempts", id.equals("dead") ? 1 : 5))
                            .status())
                    .isEqualTo(201);
        }
        Thread.sleep(50);
        var reserved = admin.post("/v1/topics/" + t + "/reservations", json("max", 3));
        assertThat(reserved.body()).hasSize(3);
        for (var delivery : reserved.body()) {
            String id = delivery.get("id").asText();
            String path = "/v1/topics/" + t + "/jobs/" + id + (id.equals("acked") ? "/ack" : "/nack");
            assertThat(admin.post(path, json("receipt", delivery.get("receipt").asText()))
                            .status())
                    .isEqualTo(204);
        }
        String topicTag = "topic=\"" + t + "\"";

        String scrape = scrape(SCRAPER).body();

        assertThat(value(scrape, "hourglass_jobs_delivered_jobs_total{" + topicTag + "}"))
                .hasValue(3.0);
        assertThat(value(scrape, "hourglass_jobs_acked_jobs_total{" + topicTag + "}"))
                .hasValue(1.0);
        assertThat(value(scrape, "hourglass_jobs_retried_jobs_total{" + topicTag + "}"))
                .hasValue(1.0);
        assertThat(value(scrape, "hourglass_jobs_dead_lettered_jobs_total{" + topicTag + "}"))
                .hasValue(1.0);
        assertThat(value(scrape, "hourglass_job_lateness_seconds_count{" + topicTag + "}"))
                .hasValue(3.0);
        // Each job waited at least the 50 ms before the reservation.
        assertThat(value(scrape, "hourglass_job_lateness_seconds_sum{" + topicTag + "}")
                        .orElseThrow())
                .isBetween(3 * 0.05, 30.0);
    }

    @Test
    void theScrapeNeedsTheMetricsOrAdminRight() throws Exception {
        HttpResponse<String> none = scrape(null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(h -> assertThat(h).startsWith("Bearer"));
        assertThat(none.body()).contains("\"error\"");
        assertThat(scrape("unknown-0123456789abcdef").statusCode()).isEqualTo(401);
        HttpResponse<String> producer = scrape(PRODUCER);
        assertThat(producer.statusCode()).isEqualTo(403);
        assertThat(producer.body()).contains("Authorization: this token has no metrics right");

        HttpResponse<String> scraper = scrape(SCRAPER);
        assertThat(scraper.statusCode()).isEqualTo(200);
        assertThat(scraper.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain").contains("version=0.0.4"));
        assertThat(scrape(ADMIN).statusCode()).isEqualTo(200);
    }

    @Test
    void theMetricsRightAllowsNothingElse() {
        Api scraper = api.withToken(SCRAPER);
        assertThat(scraper.get("/v1/topics").status()).isEqualTo(403);
        assertThat(scraper.post("/v1/topics/none-1/jobs", json("payload", 1)).status())
                .isEqualTo(403);
        assertThat(scraper.post("/v1/topics/none-1/reservations", "{}").status())
                .isEqualTo(403);
    }

    @Test
    void probesHealthAndTheApiDescriptionNeedNoToken() throws Exception {
        for (String path :
                new String[] {"/health", "/livez", "/readyz", "/v3/api-docs", "/v3/api-docs/swagger-config"}) {
            assertThat(api.get(path).status()).as(path).isEqualTo(200);
        }
        assertThat(get("/swagger-ui/index.html").statusCode()).isEqualTo(200);
        assertThat(api.get("/v1/topics").status()).isEqualTo(401);
        assertThat(api.send("POST", "/livez", "{}", "application/json").status())
                .isEqualTo(401);
    }

    @Test
    void noSpellingOfAnApiPathPassesForAPublicOne() throws Exception {
        for (String path : new String[] {
            "/swagger-ui/../v1/topics",
            "/swagger-ui/%2e%2e/v1/topics",
            "/v3/api-docs/..;/v1/topics",
            "/health;x/../v1/topics"
        }) {
            try (RawHttp http = new RawHttp(port())) {
                String response = http.send("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                        .readResponse();
                assertThat(response).as(path).doesNotStartWith("HTTP/1.1 200").doesNotContain("\"topic\"");
            }
        }
    }

    private static HttpResponse<String> scrape(String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + "/metrics"))
                .GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** @return the value of the sample {@code nameAndLabels} (e.g. {@code x_total{topic="t"}}) in a scrape */
    static OptionalDouble value(String scrape, String nameAndLabels) {
        return scrape.lines()
                .filter(line -> line.startsWith(nameAndLabels + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(nameAndLabels.length() + 1)))
                .findFirst();
    }
}
