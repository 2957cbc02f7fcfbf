package io.hourglass.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A tiny JSON-over-HTTP client for the tests: real requests to a running server. */
final class Api {
    static final ObjectMapper JSON = new ObjectMapper();

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final HttpClient http = HTTP;
    private final String base;
    private final String authorization;

    Api(int port) {
        this(port, null);
    }

    private Api(int port, String authorization) {
        this.base = "http://127.0.0.1:" + port;
        this.authorization = authorization;
    }

    /** @return a client that sends {@code Authorization: Bearer <token>} */
    Api withToken(String token) {
        return withAuthorization("Bearer " + token);
    }

    /** @return a client that sends this {@code Authorization} header */
    Api withAuthorization(String header) {
        return new Api(Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)), header);
    }

    /** An answer: status, parsed body (null when empty) and the raw response. */
    record Response(int status, JsonNode body, HttpResponse<String> raw) {
        String error() {
            return body == null || body.get("error") == null
                    ? null
                    : body.get("error").asText();
        }
    }

    Response get(String path) {
        return send(request(path).GET().build());
    }

    Response delete(String path) {
        return send(request(path).DELETE().build());
    }

    Response post(String path, String json) {
        return post(path, json, "application/json");
    }

    Response post(String path, String body, String contentType) {
        HttpRequest.Builder b = request(path)
                .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return send(b.build());
    }

    /** Sends any method, with a body (null for none) and a content type (null for none). */
    Response send(String method, String path, String body, String contentType) {
        HttpRequest.Builder b = request(path)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return send(b.build());
    }

    CompletableFuture<Response> postAsync(String path, String json) {
        HttpRequest req = request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).thenApply(Api::parse);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        return authorization == null ? b : b.header("Authorization", authorization);
    }

    private Response send(HttpRequest request) {
        try {
            return parse(http.send(request, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Response parse(HttpResponse<String> r) {
        try {
            return new Response(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()), r);
        } catch (IOException e) {
            throw new AssertionError("not JSON (HTTP " + r.statusCode() + "): " + r.body(), e);
        }
    }

    /** @return the JSON text of {@code {"k1": v1, "k2": v2, ...}} */
    static String json(Object... keysAndValues) {
        var node = JSON.createObjectNode();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            node.set((String) keysAndValues[i], JSON.valueToTree(keysAndValues[i + 1]));
        }
        return node.toString();
    }
}
