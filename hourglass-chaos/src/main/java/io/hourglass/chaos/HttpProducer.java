package io.hourglass.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The producers of a scenario with servers: schedule its jobs over HTTP at a steady rate, each with its own id, an
 * absolute due instant (now + a seeded delay), a seeded topic, the receiver's callback URL and {@code onConflict=keep}.
 * A POST that gets no usable answer (a timeout, a refused connection, a 5xx, a 408 or 429) is sent again, the same but
 * for the try number in its payload, to the next server, after a backoff (100 ms, doubling up to 2 s), until one
 * answers; each such try is recorded as {@code T topic id try server reason wallMs}. The answer is recorded as {@code A
 * topic id dueMs reportedDueMs acceptedWallMs tries outcome ended} ({@code ended} is {@code -} unless the id was
 * reserved by an ended job), or, for a 4xx that a retry cannot change, as {@code X topic id try status}. The requests
 * are asynchronous, so that POSTs stuck in a paused server do not hold up the others, and at most
 * {@value #MAX_IN_FLIGHT} are in flight at once: on a busy machine, retries without a bound and a backoff bury the
 * servers (a retry storm), and the run then measures nothing else.
 */
final class HttpProducer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long FIRST_RETRY_DELAY_MS = 100;
    private static final long MAX_RETRY_DELAY_MS = 2_000;
    /** POSTs in flight at once, over all servers. */
    static final int MAX_IN_FLIGHT = 64;

    private final List<URI> servers;
    private final URI callbackUrl;
    private final RecordLog log;
    private final ChaosOptions options;
    private final HttpClient http;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT, true);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "http-producer-retries");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param servers the servers' base URLs, e.g. {@code http://127.0.0.1:8080}
     * @param callbackUrl the receiver's URL
     * @param log where acceptances, failed tries and refusals go
     * @param options the run's options (topics, delays, lease, rate, producer timeout)
     */
    HttpProducer(List<URI> servers, URI callbackUrl, RecordLog log, ChaosOptions options) {
        this.servers = List.copyOf(servers);
        this.callbackUrl = callbackUrl;
        this.log = log;
        this.options = options;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofMillis(options.servers().producerTimeoutMs()))
                .build();
    }

    /**
     * Schedules {@code jobs} jobs evenly over {@code windowMs} and waits until each was accepted or refused.
     *
     * @param seed decides topics and delays
     * @return whether every job got its answer within {@code windowMs} plus 10 minutes
     * @throws InterruptedException when interrupted
     */
    boolean run(long jobs, long windowMs, long seed) throws InterruptedException {
        CountDownLatch answered = new CountDownLatch((int) jobs);
        SplittableRandom random = new SplittableRandom(seed);
        long start = System.currentTimeMillis();
        for (int i = 0; i < jobs; i++) {
            sleepUntil(start + windowMs * i / jobs);
            String topic = ClientSettings.topic(random.nextInt(options.topics()));
            long dueMs = System.currentTimeMillis() + random.nextLong(options.maxDelayMs() + 1);
            post(new Post(topic, "j" + i, dueMs, answered), 1, i % servers.size());
        }
        return answered.await(windowMs + 600_000, TimeUnit.MILLISECONDS);
    }

    private record Post(String topic, String id, long dueMs, CountDownLatch answered) {}

    private void post(Post job, int tries, int server) {
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        HttpRequest request = HttpRequest.newBuilder(
                        servers.get(server).resolve("/v1/topics/" + job.topic() + "/jobs?onConflict=keep"))
                .timeout(Duration.ofMillis(options.servers().producerTimeoutMs()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(job, tries)))
                .build();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
            inFlight.release();
            String failure = error != null ? reason(error) : answer(job, tries, response);
            if (failure != null) {
                log.append("T", job.topic(), job.id(), tries, server, failure, System.currentTimeMillis());
                long backoff = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS << Math.min(tries - 1, 10));
                timer.schedule(
                        () -> post(job, tries + 1, (server + 1) % servers.size()), backoff, TimeUnit.MILLISECONDS);
            }
        });
    }

    /** Records the answer; returns null when the job is done with, else why it must be sent again. */
    private String answer(Post job, int tries, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 200 || status == 201) {
            JsonNode reply;
            long reportedDueMs;
            try {
                reply = JSON.readTree(response.body());
                reportedDueMs = reply.hasNonNull("dueAt")
                        ? Instant.parse(reply.get("dueAt").asText()).toEpochMilli()
                        : job.dueMs();
            } catch (IOException | RuntimeException e) {
                return "unreadable-" + status;
            }
            log.append(
                    "A",
                    job.topic(),
                    job.id(),
                    job.dueMs(),
                    reportedDueMs,
                    System.currentTimeMillis(),
                    tries,
                    reply.path("outcome").asText("?"),
                    reply.hasNonNull("ended") ? reply.get("ended").asText() : "-");
            job.answered().countDown();
            return null;
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
            log.append("X", job.topic(), job.id(), tries, status);
            System.err.println("POST of " + job.id() + " refused with " + status + ": " + response.body());
            job.answered().countDown();
            return null;
        }
        return Integer.toString(status);
    }

    private static String reason(Throwable error) {
        Throwable cause = error.getCause() != null ? error.getCause() : error;
        if (cause instanceof HttpConnectTimeoutException) {
            return "connect-timeout";
        }
        if (cause instanceof HttpTimeoutException) {
            return "timeout";
        }
        if (cause instanceof ConnectException) {
            return "connection-refused";
        }
        return "io-error";
    }

    private String body(Post job, int tries) {
        ObjectNode body = JSON.createObjectNode();
        body.put("id", job.id());
        body.put("runAt", Instant.ofEpochMilli(job.dueMs()).toString());
        body.putObject("payload").put("job", job.id()).put("try", tries);
        body.put("callbackUrl", callbackUrl.toString());
        body.put("leaseMs", options.leaseMs());
        body.put("maxAttempts", 1_000);
        body.putArray("backoffMs").add(250);
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleepUntil(long wallMs) throws InterruptedException {
        long wait = wallMs - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
