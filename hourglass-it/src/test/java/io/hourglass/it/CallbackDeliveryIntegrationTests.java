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
import io.hourglass.embedded.RedisServerProcess;
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
    record Received(String path, String body, Map<String, String> headers, long atMs, String protocol) {}

    /** Tests call this machine's receiver, so they allow 127.0.0.1 explicitly; the default refuses loopback. */
    private static final List<String> LOCAL = List.of("127.0.0.1");

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
                    "Hourglass-Attempt-Due-At",
                    "Content-Type",
                    "Upgrade",
                    "Connection",
                    "Hourglass-Signature")) {
                String v = exchange.getRequestHeaders().getFirst(h);
                if (v != null) {
                    headers.put(h, v);
                }
            }
            String path = exchange.getRequestURI().getPath();
            received.add(new Received(path, body, headers, at, exchange.getProtocol()));
            if (path.startsWith("/fail")) {
                // A status text and body that must not reach the job's error.
                byte[] answer = "internal-detail".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(failingStatus.get(), answer.length);
                exchange.getResponseBody().write(answer);
            } else {
                exchange.sendResponseHeaders(204, -1);
            }
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
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL).events(new JobEvents() {
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
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
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
            assertThat(Instant.parse(r.headers().get("Hourglass-Attempt-Due-At")))
                    .isEqualTo(s.dueAt());
            assertThat(r.atMs()).isGreaterThanOrEqualTo(s.dueAt().toEpochMilli());
            assertThat(r.body()).isEqualTo("{\"n\":" + id.substring(2) + "}");
            // HTTP/1.1 for http:// targets: no offer to upgrade the connection to h2c.
            assertThat(r.protocol()).isEqualTo("HTTP/1.1");
            assertThat(r.headers()).doesNotContainKey("Upgrade");
            assertThat(r.headers().getOrDefault("Connection", "")).doesNotContainIgnoringCase("upgrade");
        }
        await().atMost(Duration.ofSeconds(2))
                .until(() -> hourglass.stats("notify").active() == 0);
        assertThat(hourglass.get("notify", "cb0")).isEmpty();
    }

    @Test
    void aFailingCallbackIsRetriedOnItsBackoffThenDeadLettered(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(CallbackOptions.defaults());
        ScheduleResult scheduled = hourglass.schedule(JobRequest.builder("notify")
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
        // Hourglass-Due-At is the job's original due time on every attempt; Hourglass-Attempt-Due-At is when each
        // attempt fell due: a retry's own due time, later with each attempt.
        assertThat(received)
                .extracting(r -> Instant.parse(r.headers().get("Hourglass-Due-At")))
                .containsOnly(scheduled.dueAt());
        assertThat(received)
                .extracting(r -> Instant.parse(r.headers().get("Hourglass-Attempt-Due-At")))
                .startsWith(scheduled.dueAt())
                .isSorted()
                .doesNotHaveDuplicates();
        assertThat(hourglass.deadLetters("notify", 0, 1).get(0).lastError())
                .isEqualTo("java.io.IOException: callback failed: HTTP 500");
    }

    @Test
    void theJobsErrorCarriesTheStatusCodeButNeitherTheUrlNorTheAnswer(HourglassFactory factory) {
        failingStatus.set(403);
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(CallbackOptions.defaults());
        hourglass.schedule(JobRequest.builder("notify")
                .id("forbidden")
                .callbackUrl(url("/fail/secret-path"))
                .maxAttempts(1)
                .build());
        await().atMost(Duration.ofSeconds(5))
                .until(() ->
                        hourglass.get("notify", "forbidden").map(JobInfo::state).orElse(null) == JobState.DEAD);
        assertThat(hourglass.get("notify", "forbidden").orElseThrow().lastError())
                .isEqualTo("java.io.IOException: callback failed: HTTP 403");
    }

    @Test
    void aServiceThatIsNotHttpTellsTheProducerNothingOfItsAnswer(HourglassFactory factory, RedisServerProcess redis) {
        // The Redis port: Redis drops an HTTP request as an attack; the JDK client used to quote its parser here.
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(CallbackOptions.defaults());
        hourglass.schedule(JobRequest.builder("notify")
                .id("redis")
                .callbackUrl(URI.create("http://127.0.0.1:" + redis.port() + "/"))
                .maxAttempts(1)
                .build());
        await().atMost(Duration.ofSeconds(15))
                .until(() ->
                        hourglass.get("notify", "redis").map(JobInfo::state).orElse(null) == JobState.DEAD);
        assertThat(hourglass.get("notify", "redis").orElseThrow().lastError())
                .isEqualTo("java.io.IOException: callback failed: no HTTP answer");
    }

    @Test
    void callbackJobsAreNotHandedToWorkersNorWorkerJobsToCallbacks(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
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
        Hourglass dispatcher = factory.create(b -> b.callbackAllowList(LOCAL));
        dispatcher.startCallbackDelivery(CallbackOptions.defaults());
        Hourglass producer = factory.create(b -> b.callbackAllowList(LOCAL));
        producer.schedule(
                JobRequest.builder("brand-new").id("x").callbackUrl(url("/ok")).build());
        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 1);
    }

    /** The receiver's side of SECURITY.md's Java verifier: any {@code v2} that matches any of its secrets. */
    static boolean verify(List<String> secrets, String header, Received r, String url, long nowMs) throws Exception {
        long t = -1;
        List<String> given = new java.util.ArrayList<>();
        for (String part : header.split(",")) {
            if (part.startsWith("t=")) {
                t = Long.parseLong(part.substring(2));
            } else if (part.startsWith("v2=")) {
                given.add(part.substring(3));
            }
        }
        if (t < 0 || Math.abs(nowMs - t) > 5 * 60 * 1000) {
            return false;
        }
        byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
        String canonical = t + "\n" + r.headers().get("Hourglass-Topic") + "\n"
                + r.headers().get("Hourglass-Job-Id")
                + "\n" + r.headers().get("Hourglass-Attempt") + "\n" + url + "\n"
                + java.util.HexFormat.of()
                        .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                .digest(body));
        for (String secret : secrets) {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] expected = mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8));
            for (String sig : given) {
                if (java.security.MessageDigest.isEqual(
                        expected, java.util.HexFormat.of().parseHex(sig))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Received withHeader(Received r, String name, String value) {
        Map<String, String> headers = new java.util.HashMap<>(r.headers());
        headers.put(name, value);
        return new Received(r.path(), r.body(), headers, r.atMs(), r.protocol());
    }

    @Test
    void signaturesBindTheJobTopicAttemptAndUrlAndCarryTheNextSecretDuringARotation(HourglassFactory factory)
            throws Exception {
        String current = "a-secret-of-some-length";
        String next = "the-next-secret-of-some-length";
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(CallbackOptions.builder()
                .signingSecret(current)
                .nextSigningSecret(next)
                .build());
        long before = System.currentTimeMillis();
        for (String id : List.of("first", "second")) {
            hourglass.schedule(JobRequest.builder("notify")
                    .id(id)
                    .payload("{\"x\":1}")
                    .callbackUrl(url("/ok"))
                    .build());
        }
        await().atMost(Duration.ofSeconds(3)).until(() -> received.size() == 2);
        long now = System.currentTimeMillis();
        String url = url("/ok").toString();
        for (Received r : received) {
            String header = r.headers().get("Hourglass-Signature");
            assertThat(header).matches("t=\\d+,v2=[0-9a-f]{64},v2=[0-9a-f]{64}");
            assertThat(Long.parseLong(header.substring(2, header.indexOf(',')))).isBetween(before, now);
            // Either secret alone verifies: a receiver that has moved to the next one and one that has not.
            assertThat(verify(List.of(current), header, r, url, now)).isTrue();
            assertThat(verify(List.of(next), header, r, url, now)).isTrue();
            assertThat(verify(List.of("not-the-secret-at-all"), header, r, url, now))
                    .isFalse();
            // A captured signature is worth nothing for another job, attempt, topic or URL.
            String otherId = r.headers().get("Hourglass-Job-Id").equals("first") ? "second" : "first";
            assertThat(verify(List.of(current), header, withHeader(r, "Hourglass-Job-Id", otherId), url, now))
                    .isFalse();
            assertThat(verify(List.of(current), header, withHeader(r, "Hourglass-Attempt", "2"), url, now))
                    .isFalse();
            assertThat(verify(List.of(current), header, withHeader(r, "Hourglass-Topic", "other"), url, now))
                    .isFalse();
            assertThat(verify(List.of(current), header, r, url("/other").toString(), now))
                    .isFalse();
            assertThat(verify(List.of(current), header, r, url, now + 6 * 60 * 1000))
                    .as("a replay after 5 minutes")
                    .isFalse();
        }
        // Same payload, same instant or not: two jobs never share a signature.
        assertThat(received.get(0).headers().get("Hourglass-Signature").split(",")[1])
                .isNotEqualTo(
                        received.get(1).headers().get("Hourglass-Signature").split(",")[1]);
    }

    @Test
    void theAllowListRefusesAtScheduleTimeAndWritesNothing(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(List.of("10.0.0.0/8", "hooks.example.com")));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> hourglass.schedule(JobRequest.builder("notify")
                        .id("ssrf")
                        .callbackUrl(URI.create("http://127.0.0.1:6379/"))
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("callbackUrl: host 127.0.0.1 resolves to an internal address");
        assertThat(hourglass.get("notify", "ssrf")).isEmpty();
        assertThat(hourglass.topics()).isEmpty();
    }

    @Test
    void withoutAnAllowListInternalAddressesAreRefusedAtSchedule(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        for (String target : List.of(
                "http://169.254.169.254/latest/meta-data/",
                "http://127.0.0.1:6379/",
                "http://localhost/",
                "http://10.0.0.1/",
                "http://[::1]/",
                "http://[::ffff:169.254.169.254]/",
                "http://[fd00:ec2::254]/")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> hourglass.schedule(JobRequest.builder("notify")
                            .id("ssrf")
                            .callbackUrl(URI.create(target))
                            .build()))
                    .as(target)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("resolves to an internal address");
        }
        assertThat(hourglass.get("notify", "ssrf")).isEmpty();
    }

    @Test
    void withoutAnAllowListADeliveryToAnInternalAddressIsRefusedBeforeConnecting(HourglassFactory factory) {
        // Scheduled by a producer that allows 127.0.0.1, delivered by a dispatcher with the default rules.
        Hourglass producer = factory.create(b -> b.callbackAllowList(LOCAL));
        producer.schedule(JobRequest.builder("notify")
                .id("inward")
                .callbackUrl(url("/ok"))
                .maxAttempts(1)
                .build());
        Hourglass dispatcher = factory.create();
        dispatcher.startCallbackDelivery(CallbackOptions.defaults());
        await().atMost(Duration.ofSeconds(5))
                .until(() ->
                        producer.get("notify", "inward").map(JobInfo::state).orElse(null) == JobState.DEAD);
        assertThat(received).isEmpty();
        assertThat(producer.get("notify", "inward").orElseThrow().lastError())
                .startsWith("java.io.IOException: callback not sent: host 127.0.0.1 resolves to an internal address");
    }

    @Test
    void theAllowListIsCheckedAgainAtDelivery(HourglassFactory factory) {
        Hourglass producer = factory.create(b -> b.callbackAllowList(LOCAL));
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
                .contains("callback not sent: host 127.0.0.1 resolves to an internal address");
    }
}
