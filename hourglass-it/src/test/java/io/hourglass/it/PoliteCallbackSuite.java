package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hourglass.Backoff;
import io.hourglass.CallbackOptions;
import io.hourglass.Hourglass;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.testkit.HourglassFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Polite callbacks against a real HTTP receiver (the JDK's {@link HttpServer}): a {@code 429} or {@code 503} with
 * {@code Retry-After} defers the job by that long, never less, without charging an attempt, up to the dispatcher's
 * {@code maxDeferrals}; a receiver that keeps answering {@code 429} gets fewer requests at once; a job's dispatch
 * deadline replaces the timeout, up to the dispatcher's maximum, while its lease is kept. Run once per shard count by
 * its subclasses.
 */
abstract class PoliteCallbackSuite {
    private static final String TOPIC = "polite";
    private static final List<String> LOCAL = List.of("127.0.0.1");
    /** A backoff no test waits for: a retry within seconds can only be a deferral. */
    private static final Backoff MINUTE = Backoff.fixed(Duration.ofMinutes(1));

    /** One request the receiver got: its path, the job's attempt header, and when it arrived (ms). */
    record Received(String path, String attempt, long atMs) {}

    private HttpServer receiver;
    private ExecutorService receiverThreads;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    /** The instant the {@code /later-date} receiver named in its first answer. */
    private final AtomicLong namedDate = new AtomicLong();

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger throttled = new AtomicInteger();

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiverThreads = Executors.newCachedThreadPool();
        receiver.setExecutor(receiverThreads);
        receiver.createContext("/", exchange -> {
            try {
                exchange.getRequestBody().readAllBytes();
                String path = exchange.getRequestURI().getPath();
                received.add(new Received(
                        path, exchange.getRequestHeaders().getFirst("Hourglass-Attempt"), System.currentTimeMillis()));
                answer(
                        exchange,
                        path,
                        calls.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        receiver.start();
    }

    private void answer(HttpExchange exchange, String path, int call) throws IOException, InterruptedException {
        switch (path) {
            case "/later-seconds" -> reply(exchange, call == 1 ? 429 : 204, call == 1 ? "1" : null);
            case "/later-date" -> {
                if (call == 1) {
                    // At least a second ahead: HTTP dates have whole seconds.
                    long at = (System.currentTimeMillis() / 1000 + 2) * 1000;
                    namedDate.set(at);
                    reply(
                            exchange,
                            503,
                            DateTimeFormatter.RFC_1123_DATE_TIME.format(
                                    Instant.ofEpochMilli(at).atOffset(ZoneOffset.UTC)));
                } else {
                    reply(exchange, 204, null);
                }
            }
            case "/later-far" -> reply(exchange, 429, "999999");
            case "/always-busy" -> reply(exchange, 429, "0");
            case "/crowded" -> {
                // Takes three requests at a time, 30 ms each; more are refused, to be retried at once.
                if (inFlight.incrementAndGet() > 3) {
                    inFlight.decrementAndGet();
                    throttled.incrementAndGet();
                    reply(exchange, 429, "0");
                    return;
                }
                Thread.sleep(30);
                inFlight.decrementAndGet();
                reply(exchange, 204, null);
            }
            default -> {
                if (path.startsWith("/slow/")) {
                    Thread.sleep(Long.parseLong(path.substring("/slow/".length())));
                }
                reply(exchange, 204, null);
            }
        }
    }

    private static void reply(HttpExchange exchange, int status, String retryAfter) throws IOException {
        if (retryAfter != null) {
            exchange.getResponseHeaders().set("Retry-After", retryAfter);
        }
        exchange.sendResponseHeaders(status, -1);
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
        receiverThreads.shutdownNow();
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + path);
    }

    private List<Received> requestsTo(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    private static JobRequest.Builder job(String id, URI url) {
        return JobRequest.builder(TOPIC).id(id).callbackUrl(url).backoff(MINUTE);
    }

    private static boolean gone(Hourglass hourglass, String id) {
        return hourglass.get(TOPIC, id).isEmpty();
    }

    private static JobState state(Hourglass hourglass, String id) {
        return hourglass.get(TOPIC, id).map(JobInfo::state).orElse(null);
    }

    @Test
    void aRetryAfterInSecondsOrAsADateIsWaitedForInFullAndChargesNoAttempt(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(CallbackOptions.defaults());
        hourglass.schedule(job("seconds", url("/later-seconds")).build());
        hourglass.schedule(job("date", url("/later-date")).build());
        hourglass.schedule(job("far", url("/later-far")).build());

        await().atMost(Duration.ofSeconds(15)).until(() -> gone(hourglass, "seconds") && gone(hourglass, "date"));

        List<Received> seconds = requestsTo("/later-seconds");
        assertThat(seconds).extracting(Received::attempt).containsExactly("1", "1");
        assertThat(seconds.get(1).atMs() - seconds.get(0).atMs())
                .as("Retry-After: 1 is waited for in full, and not the minute of the backoff")
                .isBetween(1000L, 10_000L);
        List<Received> date = requestsTo("/later-date");
        assertThat(date).extracting(Received::attempt).containsExactly("1", "1");
        assertThat(date.get(1).atMs()).as("not before the date named").isGreaterThanOrEqualTo(namedDate.get());

        JobInfo far = hourglass.get(TOPIC, "far").orElseThrow();
        long askedAt = requestsTo("/later-far").get(0).atMs();
        assertThat(far.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(far.attempt()).as("no attempt charged").isZero();
        assertThat(far.lastError()).isNull();
        assertThat(far.dueAt().toEpochMilli() - askedAt)
                .as("a Retry-After of 11 days is cut to an hour")
                .isBetween(
                        CallbackOptions.MAX_RETRY_AFTER.toMillis() - 5_000,
                        CallbackOptions.MAX_RETRY_AFTER.toMillis() + 5_000);
    }

    @Test
    void pastItsDeferralsARetryAfterCountsAsAFailedAttempt(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().maxDeferrals(2).build());
        hourglass.schedule(job("busy", url("/always-busy")).maxAttempts(1).build());

        await().atMost(Duration.ofSeconds(10)).until(() -> state(hourglass, "busy") == JobState.DEAD);

        assertThat(requestsTo("/always-busy"))
                .as("two deferrals, then the third answer counts against the only attempt")
                .extracting(Received::attempt)
                .containsExactly("1", "1", "1");
        JobInfo dead = hourglass.get(TOPIC, "busy").orElseThrow();
        assertThat(dead.attempt()).isEqualTo(1);
        assertThat(dead.lastError()).isEqualTo("java.io.IOException: callback failed: HTTP 429");
    }

    @Test
    void aJobsDispatchDeadlineReplacesTheTimeoutUpToTheMaximumAndItsLeaseIsKept(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(CallbackOptions.builder()
                .timeout(Duration.ofMillis(200))
                .maxDispatchDeadline(Duration.ofMillis(1000))
                .build());
        // Longer than the timeout and twice its lease, within its own deadline: delivered once.
        hourglass.schedule(job("patient", url("/slow/600"))
                .dispatchDeadline(Duration.ofMillis(900))
                .lease(Duration.ofMillis(300))
                .build());
        // Its own deadline is cut to the dispatcher's maximum.
        hourglass.schedule(job("capped", url("/slow/1800"))
                .dispatchDeadline(Duration.ofSeconds(20))
                .maxAttempts(1)
                .build());
        // No deadline of its own: the timeout.
        hourglass.schedule(job("plain", url("/slow/600")).maxAttempts(1).build());

        await().atMost(Duration.ofSeconds(10))
                .until(() -> gone(hourglass, "patient")
                        && state(hourglass, "capped") == JobState.DEAD
                        && state(hourglass, "plain") == JobState.DEAD);

        assertThat(requestsTo("/slow/600")).as("patient once, plain once").hasSize(2);
        assertThat(hourglass.get(TOPIC, "capped").orElseThrow().lastError())
                .isEqualTo("java.io.IOException: callback failed: timed out");
        assertThat(hourglass.get(TOPIC, "plain").orElseThrow().lastError())
                .isEqualTo("java.io.IOException: callback failed: timed out");
        assertThat(requestsTo("/slow/1800")).hasSize(1);
    }

    @Test
    void aTopicWhoseReceiverKeepsAnswering429SlowsDown(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().concurrency(16).maxDeferrals(1000).build());
        int jobs = 60;
        for (int i = 0; i < jobs; i++) {
            hourglass.schedule(job("c" + i, url("/crowded")).build());
        }

        await().atMost(Duration.ofSeconds(20))
                .until(() -> hourglass.stats(TOPIC).scheduled()
                                + hourglass.stats(TOPIC).ready()
                                + hourglass.stats(TOPIC).active()
                        == 0);

        assertThat(requestsTo("/crowded")).extracting(Received::attempt).containsOnly("1");
        // Sixteen requests at once against a receiver that takes three would be refused about thirteen times per
        // 30 ms, retried at once each time: thousands of 429s. The window falls to about three instead.
        assertThat(throttled.get())
                .as("429 answers for %d jobs", jobs)
                .isGreaterThan(0)
                .isLessThan(2 * jobs);
    }
}
