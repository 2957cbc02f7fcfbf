package io.hourglass.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The receiver of a scenario's HTTP callbacks: a real HTTP server (the JDK's) on 127.0.0.1 that records every callback
 * it answered as {@code C topic id attempt creatorTry startMs endMs status}, once the answer is written. Each delivery
 * (job and attempt) gets a seeded answer: {@value #FAIL_PERCENT}% are answered 500 at once, {@value #SLOW_PERCENT}% are
 * answered 200 only after {@code slowMs} (longer than the lease), the rest 200 at once. Thread-safe; each request runs
 * on a thread of its own, so slow answers hold no one else up.
 */
final class CallbackReceiver implements AutoCloseable {
    /** Share of deliveries answered 500, in percent. */
    static final int FAIL_PERCENT = 10;
    /** Share of deliveries answered 200 after {@code slowMs}, in percent. */
    static final int SLOW_PERCENT = 10;

    private static final String PATH = "/callbacks";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "callback-receiver");
        thread.setDaemon(true);
        return thread;
    });
    private final RecordLog log;
    private final long seed;
    private final long slowMs;
    private final Set<String> completed = ConcurrentHashMap.newKeySet();

    private CallbackReceiver(RecordLog log, long seed, long slowMs) throws IOException {
        this.log = log;
        this.seed = seed;
        this.slowMs = slowMs;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1_000);
        server.createContext(PATH, this::handle);
        server.setExecutor(threads);
    }

    /**
     * Starts a receiver on a free port of 127.0.0.1.
     *
     * @param log where each answered callback is recorded
     * @param seed decides each delivery's answer
     * @param slowMs how long a slow answer takes, in ms
     * @return the running receiver
     * @throws IOException when no port can be bound
     */
    static CallbackReceiver start(RecordLog log, long seed, long slowMs) throws IOException {
        CallbackReceiver receiver = new CallbackReceiver(log, seed, slowMs);
        receiver.server.start();
        return receiver;
    }

    /** @return the URL the jobs' {@code callbackUrl} points to */
    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + PATH);
    }

    /** @return jobs ({@link History#key}) whose callback was answered 2xx at least once */
    int completedJobs() {
        return completed.size();
    }

    private void handle(HttpExchange exchange) throws IOException {
        long startMs = System.currentTimeMillis();
        String topic = exchange.getRequestHeaders().getFirst("Hourglass-Topic");
        String id = exchange.getRequestHeaders().getFirst("Hourglass-Job-Id");
        String attemptHeader = exchange.getRequestHeaders().getFirst("Hourglass-Attempt");
        int creatorTry = -1;
        int attempt = -1;
        try (InputStream body = exchange.getRequestBody()) {
            JsonNode payload = JSON.readTree(body);
            creatorTry = payload == null ? -1 : payload.path("try").asInt(-1);
            attempt = attemptHeader == null ? -1 : Integer.parseInt(attemptHeader.trim());
        } catch (IOException | NumberFormatException e) {
            // answered 400 below
        }
        if (topic == null || id == null || attempt < 1 || creatorTry < 0) {
            // not a callback of this checker: say so, and record nothing that the check could mistake for one
            answer(exchange, 400);
            return;
        }
        Answer answer = answer(seed, id, attempt);
        int status = answer == Answer.FAIL ? 500 : 200;
        if (answer == Answer.SLOW) {
            try {
                Thread.sleep(slowMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.close();
                return;
            }
        }
        int answered = answer(exchange, status);
        log.append("C", topic, id, attempt, creatorTry, startMs, System.currentTimeMillis(), answered);
        if (answered == 200) {
            completed.add(History.key(topic, id));
        }
    }

    /** How the receiver answers a delivery. */
    enum Answer {
        /** 200 at once. */
        OK,
        /** 500 at once. */
        FAIL,
        /** 200 after {@code slowMs}. */
        SLOW
    }

    /** @return the seeded answer to one delivery (job and attempt): the same every time it is asked */
    static Answer answer(long seed, String id, int attempt) {
        int roll = new SplittableRandom(seed * 1_000_003L + id.hashCode() * 31L + attempt).nextInt(100);
        if (roll < FAIL_PERCENT) {
            return Answer.FAIL;
        }
        return roll < FAIL_PERCENT + SLOW_PERCENT ? Answer.SLOW : Answer.OK;
    }

    /** @return the status written, or 0 when the connection was gone */
    private static int answer(HttpExchange exchange, int status) {
        try {
            exchange.sendResponseHeaders(status, -1);
            return status;
        } catch (IOException e) {
            return 0;
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
