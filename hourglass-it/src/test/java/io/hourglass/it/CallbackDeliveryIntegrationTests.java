package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hourglass.Backoff;
import io.hourglass.CallbackOptions;
import io.hourglass.HandlerThreads;
import io.hourglass.Hourglass;
import io.hourglass.Job;
import io.hourglass.JobEvents;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.ScheduleResult;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

@RedisTest(shards = 2)
class CallbackDeliveryIntegrationTests {
    /** One request the receiver got. */
    record Received(String path, String body, Map<String, String> headers, long atMs) {}

    private HttpServer receiver;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger failingStatus = new AtomicInteger(500);

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", exchange -> {
            long at = System.currentTimeMillis();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> headers = new ConcurrentHashMap<>();
            for (String h : List.of(
                    "Hourglass-Job-Id",
                    "Hourglass-Topic",
                    "Hourglass-Attempt",
                    "Hourglass-Due-At",
                    "Content-Type",
                    "Hourglass-Signature")) {
                String v = exchange.getRequestHeaders().getFirst(h);
                if (v != null) {
                    headers.put(h, v);
                }
            }
            String path = exchange.getRequestURI().getPath();
            received.add(new Received(path, body, headers, at));
            int status = path.startsWith("/fail") ? failingStatus.get() : 204;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    private URI url(String path) {
        return URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + path);
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void callbacksCanBeSentFromVirtualThreads(HourglassFactory factory) {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Hourglass hourglass = factory.create(b -> b.events(new JobEvents() {
            @Override
            public void delivered(Job job, Duration lateness) {
                Thread thread = Thread.currentThread();
                threads.add((HandlerThreads.isVirtual(thread) ? "virtual " : "platform ") + thread.getName());
            }
        }));
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().virtualThreads(true).build());
        for (int i = 0; i < 10; i++) {
            hourglass.schedule(JobRequest.builder("notify")
                    .id("v" + i)
                    .callbackUrl(url("/ok"))
                    .build());
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() >= 10);
        await().atMost(Duration.ofSeconds(2))
                .until(() -> hourglass.stats("notify").active() == 0);
        assertThat(threads).isNotEmpty().allMatch(t -> t.startsWith("virtual hourglass-callback-"));
    }

    @Test
    void dueCallbackJobsArePostedWithTheirHeadersAndNeverEarly(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        hourglass.startCallbackDelivery(CallbackOptions.defaults());
        Map<String, ScheduleResult> scheduled = new ConcurrentHashMap<>();
        for (int i = 0; i < 20; i++) {
            ScheduleResult r = hourglass.schedule(JobRequest.builder("notify")
                    .id("cb" + i)
                    .payload("{\"n\":" + i + "}")
                    .delay(Duration.ofMillis(200 + 30 * i))
                    .callbackUrl(url("/ok"))
                    .build());
            scheduled.put(r.id(), r);
        }
        hourglass.schedule(JobRequest.builder("notify")
                .id("cancelled")
                .delay(Duration.ofMillis(300))
                .callbackUrl(url("/ok"))
                .build());
        hourglass.cancel("notify", "cancelled");

        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() >= 20);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> received.size() == 20);
        for (Received r : received) {
            String id = r.headers().get("Hourglass-Job-Id");
            ScheduleResult s = scheduled.get(id);
            assertThat(s).as("job %s", id).isNotNull();
            assertThat(r.headers())
                    .containsEntry("Hourglass-Topic", "notify")
                    .containsEntry("Hourglass-Attempt", "1")
                    .containsEntry("Content-Type", "application/json");
            assertThat(Instant.parse(r.headers().get("Hourglass-Due-At"))).isEqualTo(s.dueAt());
            assertThat(r.atMs()).isGreaterThanOrEqualTo(s.dueAt().toEpochMilli());
            assertThat(r.body()).isEqualTo("{\"n\":" + id.substring(2) + "}");
        }
        await().atMost(Duration.ofSeconds(2))
                .until(() -> hourglass.stats("notify").active() == 0);
        assertThat(hourglass.get("notify", "cb0")).isEmpty();
    }

    @Test
    void aFailingCallbackIsRetriedOnItsBackoffThenDeadLettered(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        hourglass.startCallbackDelivery(CallbackOptions.defaults());
        hourglass.schedule(JobRequest.builder("notify")
                .id("bad")
                .callbackUrl(url("/fail"))
                .maxAttempts(3)
                .backoff(Backoff.stepped(Duration.ofMillis(100), Duration.ofMillis(200)))
                .build());
        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.get("notify", "bad").map(JobInfo::state).orElse(null) == JobState.DEAD);
        assertThat(received)
                .extracting(r -> r.headers().get("Hourglass-Attempt"))
                .containsExactly("1", "2", "3");
        assertThat(hourglass.deadLetters("notify", 0, 1).get(0).lastError()).contains("HTTP 500");
    }

    @Test
    void callbackJobsAreNotHandedToWorkersNorWorkerJobsToCallbacks(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        List<String> workerGot = new CopyOnWriteArrayList<>();
        hourglass.subscribe("mixed", job -> workerGot.add(job.id()));
        hourglass.startCallbackDelivery(CallbackOptions.defaults());
        hourglass.schedule(JobRequest.builder("mixed").id("for-worker").build());
        hourglass.schedule(JobRequest.builder("mixed")
                .id("for-callback")
                .callbackUrl(url("/ok"))
                .build());
        await().atMost(Duration.ofSeconds(3)).until(() -> workerGot.size() == 1 && received.size() == 1);
        assertThat(workerGot).containsExactly("for-worker");
        assertThat(received.get(0).headers()).containsEntry("Hourglass-Job-Id", "for-callback");
    }

    @Test
    void topicsFirstUsedByAnotherProcessAreDiscovered(HourglassFactory factory) {
        Hourglass dispatcher = factory.create();
        dispatcher.startCallbackDelivery(CallbackOptions.defaults());
        Hourglass producer = factory.create();
        producer.schedule(
                JobRequest.builder("brand-new").id("x").callbackUrl(url("/ok")).build());
        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 1);
    }

    @Test
    void signedCallbacksCarryAnHmacOfTimestampAndBody(HourglassFactory factory) throws Exception {
        String secret = "a-secret-of-some-length";
        Hourglass hourglass = factory.create();
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().signingSecret(secret).build());
        long before = System.currentTimeMillis();
        hourglass.schedule(JobRequest.builder("notify")
                .id("signed")
                .payload("{\"x\":1}")
                .callbackUrl(url("/ok"))
                .build());
        await().atMost(Duration.ofSeconds(3)).until(() -> received.size() == 1);
        Received r = received.get(0);
        // The receiver's side of the recipe in the README.
        String[] parts = r.headers().get("Hourglass-Signature").split(",");
        long t = Long.parseLong(parts[0].substring("t=".length()));
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] expected = mac.doFinal((t + "." + r.body()).getBytes(StandardCharsets.UTF_8));
        assertThat(java.security.MessageDigest.isEqual(
                        expected, java.util.HexFormat.of().parseHex(parts[1].substring("v1=".length()))))
                .isTrue();
        assertThat(t).isBetween(before, System.currentTimeMillis());
    }

    @Test
    void theAllowListRefusesAtScheduleTimeAndWritesNothing(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(List.of("10.0.0.0/8", "hooks.example.com")));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> hourglass.schedule(JobRequest.builder("notify")
                        .id("ssrf")
                        .callbackUrl(URI.create("http://127.0.0.1:6379/"))
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("callbackUrl: host 127.0.0.1 resolves to 127.0.0.1");
        assertThat(hourglass.get("notify", "ssrf")).isEmpty();
        assertThat(hourglass.topics()).isEmpty();
    }

    @Test
    void theAllowListIsCheckedAgainAtDelivery(HourglassFactory factory) {
        Hourglass producer = factory.create();
        producer.schedule(JobRequest.builder("notify")
                .id("moved")
                .callbackUrl(url("/ok"))
                .maxAttempts(1)
                .build());
        Hourglass dispatcher = factory.create(b -> b.callbackAllowList(List.of("192.0.2.0/24")));
        dispatcher.startCallbackDelivery(CallbackOptions.defaults());
        await().atMost(Duration.ofSeconds(5))
                .until(() -> producer.get("notify", "moved").map(JobInfo::state).orElse(null) == JobState.DEAD);
        assertThat(received).isEmpty();
        assertThat(producer.get("notify", "moved").orElseThrow().lastError())
                .contains("callback not sent: host 127.0.0.1 resolves to 127.0.0.1");
    }
}
