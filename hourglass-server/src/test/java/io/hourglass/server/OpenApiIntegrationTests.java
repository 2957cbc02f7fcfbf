package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The API's OpenAPI description, served at {@code /v3/api-docs}, is the one committed in {@code docs/openapi.json}, so
 * that every change of the API is deliberate; Swagger UI answers at {@code /swagger-ui.html}.
 */
class OpenApiIntegrationTests extends ServerTestSupport {
    /** The committed description, relative to this module's directory (where Maven runs the tests). */
    static final Path COMMITTED = Path.of("..", "docs", "openapi.json");
    /** Set this system property to {@code true} to write the served description to {@link #COMMITTED}. */
    static final String WRITE_PROPERTY = "hourglass.openapi.write";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void theServedDescriptionIsTheCommittedOne() throws Exception {
        var response = api.get("/v3/api-docs");
        assertThat(response.status()).isEqualTo(200);
        JsonNode served = normalised(response.body());

        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            Files.writeString(COMMITTED, JSON.writeValueAsString(served) + "\n", StandardCharsets.UTF_8);
        }
        JsonNode committed = normalised(JSON.readTree(Files.readString(COMMITTED, StandardCharsets.UTF_8)));
        List<String> differences = new ArrayList<>();
        differences("", committed, served, differences);
        assertThat(differences)
                .as("The API's description (GET /v3/api-docs) differs from the committed docs/openapi.json. If"
                        + " the change is deliberate, regenerate the file and commit it: ./mvnw -B -ntp -pl"
                        + " hourglass-server -am verify -Dtest=OpenApiIntegrationTests"
                        + " -Dsurefire.failIfNoSpecifiedTests=false -D" + WRITE_PROPERTY + "=true")
                .isEmpty();
        assertThat(served).isEqualTo(committed);
    }

    @Test
    void theDescriptionCoversEveryEndpointItsErrorsAndTheBearerToken() {
        JsonNode doc = api.get("/v3/api-docs").body();

        assertThat(doc.get("openapi").asText()).startsWith("3.");
        assertThat(doc.at("/components/securitySchemes/bearerToken/scheme").asText())
                .isEqualTo("bearer");
        assertThat(doc.at("/components/schemas/Error/required/0").asText()).isEqualTo("error");
        assertThat(doc.get("paths").fieldNames())
                .toIterable()
                .containsExactlyInAnyOrder(
                        "/health",
                        "/metrics",
                        "/v1/topics",
                        "/v1/topics/{topic}",
                        "/v1/topics/{topic}/dead",
                        "/v1/topics/{topic}/dead/{id}",
                        "/v1/topics/{topic}/dead/{id}/requeue",
                        "/v1/topics/{topic}/dead/requeue",
                        "/v1/topics/{topic}/history",
                        "/v1/topics/{topic}/pause",
                        "/v1/topics/{topic}/resume",
                        "/v1/topics/{topic}/jobs/{id}/run",
                        "/v1/topics/{topic}/jobs",
                        "/v1/topics/{topic}/jobs/{id}",
                        "/v1/topics/{topic}/jobs/{id}/ack",
                        "/v1/topics/{topic}/jobs/{id}/nack",
                        "/v1/topics/{topic}/jobs/{id}/extend",
                        "/v1/topics/{topic}/jobs/{id}/reschedule",
                        "/v1/topics/{topic}/reservations",
                        "/v1/schedules",
                        "/v1/schedules/{name}",
                        "/v1/topics/{topic}/config",
                        "/v1/topics/{topic}/jobs:batch",
                        "/v1/history",
                        "/v1/tier");
        JsonNode schedule = doc.at("/paths/~1v1~1topics~1{topic}~1jobs/post");
        assertThat(schedule.get("responses").fieldNames())
                .toIterable()
                .contains("201", "400", "401", "403", "409", "413", "415", "503");
        assertThat(schedule.at("/responses/409/content/application~1json/schema/$ref")
                        .asText())
                .isEqualTo("#/components/schemas/Error");
        assertThat(doc.at("/paths/~1health/get/security")).isEmpty();
        JsonNode purge = doc.at("/paths/~1v1~1topics~1{topic}~1jobs/delete");
        assertThat(purge.get("description").asText()).endsWith("Right: admin, on the topic.");
        assertThat(purge.get("responses").fieldNames()).toIterable().contains("200", "400", "401", "403", "503");
        assertThat(doc.at("/paths/~1v1~1topics/get/responses/200/content/application~1json/schema/items/$ref")
                        .asText())
                .isEqualTo("#/components/schemas/Topic");
        assertThat(doc.at("/paths/~1v1~1topics~1{topic}~1config/put/description")
                        .asText())
                .endsWith("Right: admin, on the topic.");
        assertThat(doc.at("/paths/~1v1~1topics~1{topic}~1jobs:batch/post/description")
                        .asText())
                .endsWith("Right: produce (or admin), on the topic.");
        assertThat(doc.at("/paths/~1v1~1topics~1{topic}~1jobs~1{id}~1run/post/responses")
                        .fieldNames())
                .toIterable()
                .contains("200", "404", "409");
        assertThat(doc.at("/paths/~1v1~1tier/get/responses").fieldNames())
                .toIterable()
                .contains("200", "401", "403", "503");
        assertThat(doc.at("/components/schemas/TierWaiting/properties/topics/additionalProperties/format")
                        .asText())
                .isEqualTo("int64");
    }

    @Test
    void swaggerUiAnswers() throws Exception {
        HttpResponse<String> welcome = get("/swagger-ui.html");
        assertThat(welcome.statusCode()).isEqualTo(302);
        String location = welcome.headers().firstValue("Location").orElseThrow();
        assertThat(location).endsWith("/swagger-ui/index.html");

        HttpResponse<String> page = get(URI.create(location).getPath());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.body()).contains("swagger-ui");
        assertThat(api.get("/v3/api-docs/swagger-config").body().get("url").asText())
                .isEqualTo("/v3/api-docs");
    }

    /** @return the description without what depends on where the server runs (its URL) */
    static JsonNode normalised(JsonNode doc) throws IOException {
        ObjectNode copy = doc.deepCopy();
        copy.remove("servers");
        // Re-read through a sorted writer, so that key order never matters.
        return JSON.readTree(JSON.writeValueAsString(JSON.treeToValue(copy, Object.class)));
    }

    /** Adds to {@code out} the JSON pointer of each place where {@code served} differs from {@code committed}. */
    static void differences(String pointer, JsonNode committed, JsonNode served, List<String> out) {
        if (committed.equals(served)) {
            return;
        }
        if (committed.isObject() && served.isObject()) {
            Set<String> names = new TreeSet<>();
            committed.fieldNames().forEachRemaining(names::add);
            served.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                String child = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
                if (!committed.has(name)) {
                    out.add(child + ": only served");
                } else if (!served.has(name)) {
                    out.add(child + ": only committed");
                } else {
                    differences(child, committed.get(name), served.get(name), out);
                }
            }
        } else {
            out.add(pointer + ": committed " + abbreviated(committed) + ", served " + abbreviated(served));
        }
    }

    private static String abbreviated(JsonNode node) {
        String text = node.toString();
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
