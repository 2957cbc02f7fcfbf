package io.hourglass.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A real HTTP endpoint on 127.0.0.1 that records every callback POSTed to it. Each path answers 200, unless
 * {@link #answer(String, int)} set another status for it.
 */
final class CallbackReceiver implements AutoCloseable {
    /**
     * One received callback: when it arrived (this machine's clock, which is Redis's too), headers and body;
     * {@code dueAt} is the job's original due time ({@code Hourglass-Due-At}), {@code attemptDueAt} this attempt's.
     */
    record Call(
            String path,
            Instant receivedAt,
            String jobId,
            String topic,
            int attempt,
            Instant dueAt,
            String contentType,
            String signature,
            String body,
            Instant attemptDueAt) {}

    private final HttpServer server;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> statusByPath = new ConcurrentHashMap<>();

    CallbackReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        Instant now = Instant.now();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        var h = exchange.getRequestHeaders();
        String attempt = h.getFirst("Hourglass-Attempt");
        String dueAt = h.getFirst("Hourglass-Due-At");
        String attemptDueAt = h.getFirst("Hourglass-Attempt-Due-At");
        calls.add(new Call(
                exchange.getRequestURI().getPath(),
                now,
                h.getFirst("Hourglass-Job-Id"),
                h.getFirst("Hourglass-Topic"),
                attempt == null ? -1 : Integer.parseInt(attempt),
                dueAt == null ? null : Instant.parse(dueAt),
                h.getFirst("Content-Type"),
                h.getFirst("Hourglass-Signature"),
                body,
                attemptDueAt == null ? null : Instant.parse(attemptDueAt)));
        int status = statusByPath.getOrDefault(exchange.getRequestURI().getPath(), 200);
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    /** Makes {@code path} answer {@code status} from now on. */
    void answer(String path, int status) {
        statusByPath.put(path, status);
    }

    /** @return the URL of {@code path} on this receiver */
    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** @return every call so far, in arrival order */
    List<Call> calls() {
        return List.copyOf(calls);
    }

    /** @return the calls of one job */
    List<Call> callsOf(String jobId) {
        return calls.stream().filter(c -> jobId.equals(c.jobId())).toList();
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
