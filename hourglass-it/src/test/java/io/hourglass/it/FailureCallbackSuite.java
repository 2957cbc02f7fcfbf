package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hourglass.CallbackOptions;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobEvents;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.NonRetryableException;
import io.hourglass.WorkerOptions;
import io.hourglass.testkit.HourglassFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Failure callbacks: a job with a failure URL that goes to the dead letters gets a notice job, written by the same
 * script, which callback delivery POSTs there, signed. Run once per shard count by its subclasses; the test kit checks
 * the invariants after each test.
 */
abstract class FailureCallbackSuite {
    static final String TOPIC = "billing";
    static final String SECRET = "failure-notice-secret";
    /** Tests call this machine's receiver, so they allow 127.0.0.1 explicitly; the default refuses loopback. */
    static final List<String> LOCAL = List.of("127.0.0.1");

    /** One request the receiver got. */
    record Notice(String jobId, String topic, String attempt, String signature, String dueAt, String body) {}

    private HttpServer receiver;
    private final List<Notice> notices = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/failed", exchange -> {
            var h = exchange.getRequestHeaders();
            notices.add(new Notice(
                    h.getFirst("Hourglass-Job-Id"),
                    h.getFirst("Hourglass-Topic"),
                    h.getFirst("Hourglass-Attempt"),
                    h.getFirst("Hourglass-Signature"),
                    h.getFirst("Hourglass-Due-At"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    URI failureUrl() {
        return URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/failed");
    }

    JobRequest.Builder job(String id) {
        return JobRequest.builder(TOPIC)
                .id(id)
                .payload("{\"order\":42}")
                .maxAttempts(1)
                .failureCallbackUrl(failureUrl());
    }

    Hourglass delivering(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL));
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().signingSecret(SECRET).build());
        return hourglass;
    }

    Notice awaitNotice(String jobId) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> notices.stream().anyMatch(n -> n.jobId().equals(jobId + ":failure")));
        return notices.stream()
                .filter(n -> n.jobId().equals(jobId + ":failure"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aJobNackedOnItsLastAttemptPostsASignedFailureNotice(HourglassFactory factory) throws Exception {
        Hourglass hourglass = delivering(factory);
        Instant due = hourglass.schedule(job("p1").build()).dueAt();
        Delivery d = hourglass.reserve(TOPIC, 1, null).get(0);
        assertThat(hourglass.nack(TOPIC, "p1", d.receipt(), "card declined", null))
                .isEqualTo(JobState.DEAD);

        Notice n = awaitNotice("p1");
        assertThat(n.topic()).isEqualTo(TOPIC);
        assertThat(n.attempt()).isEqualTo("1");
        assertThat(n.body())
                .contains("\"event\":\"dead\"")
                .contains("\"id\":\"p1\"")
                .contains("\"topic\":\"billing\"")
                .contains("\"reason\":\"failed\"")
                .contains("\"attempts\":1")
                .contains("\"maxAttempts\":1")
                .contains("\"lastError\":\"card declined\"")
                .contains("\"payload\":\"{\\\"order\\\":42}\"");
        assertThat(Instant.parse(field(n.body(), "dueAt"))).isEqualTo(due);
        assertThat(Instant.parse(field(n.body(), "diedAt"))).isAfterOrEqualTo(due);
        assertThat(Instant.parse(n.dueAt())).as("the notice's own due time").isAfterOrEqualTo(due);
        assertThat(verifies(n)).as("signed like any callback").isTrue();
        // The dead letter stays; the acked notice is gone, and no notice is left waiting.
        assertThat(hourglass.get(TOPIC, "p1").map(JobInfo::state)).contains(JobState.DEAD);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.get(TOPIC, "p1:failure").isEmpty());
        assertThat(hourglass.stats(TOPIC).dead()).isEqualTo(1);
    }

    @Test
    void theNoticeIsSentAfterTheProcessThatKilledTheJobIsGone(HourglassFactory factory) {
        Hourglass killer = factory.create(b -> b.callbackAllowList(LOCAL));
        killer.schedule(job("k1").build());
        Delivery d = killer.reserve(TOPIC, 1, null).get(0);
        killer.deadLetter(TOPIC, "k1", d.receipt(), "poison");
        killer.close();

        // The notice waits in Redis, in its job's shard, where an id lookup finds it.
        Hourglass other = factory.create(b -> b.callbackAllowList(LOCAL));
        JobInfo waiting = other.get(TOPIC, "k1:failure").orElseThrow();
        assertThat(waiting.state()).isEqualTo(JobState.READY);
        assertThat(waiting.callbackUrl()).isEqualTo(failureUrl());
        assertThat(notices).isEmpty();

        other.startCallbackDelivery(
                CallbackOptions.builder().signingSecret(SECRET).build());
        Notice n = awaitNotice("k1");
        assertThat(n.body()).contains("\"reason\":\"failed\"").contains("\"lastError\":\"poison\"");
    }

    @Test
    void expiryAndAnExpiredLeaseOnTheLastAttemptPostNoticesToo(HourglassFactory factory) throws Exception {
        Hourglass hourglass = delivering(factory);
        hourglass.schedule(job("lease").lease(Duration.ofMillis(100)).build());
        hourglass.schedule(job("late")
                .delay(Duration.ofMillis(50))
                .ttl(Duration.ofMillis(50))
                .build());
        assertThat(hourglass.reserve(TOPIC, 1, null)).extracting(Delivery::id).containsExactly("lease");
        Thread.sleep(300);
        // This claim reaps the expired lease and meets the expired job: both die, neither is delivered.
        assertThat(hourglass.reserve(TOPIC, 10, null)).isEmpty();

        assertThat(awaitNotice("lease").body())
                .contains("\"reason\":\"lease expired\"")
                .contains("\"lastError\":\"lease expired on attempt 1\"");
        assertThat(awaitNotice("late").body())
                .contains("\"reason\":\"expired\"")
                .contains("\"lastError\":\"expired\"")
                .contains("\"attempts\":0");
    }

    @Test
    void aHandlersLastFailureIsNoticedAndHeardByTheInstancesListener(HourglassFactory factory) {
        List<String> heard = new CopyOnWriteArrayList<>();
        Hourglass hourglass = factory.create(b -> b.callbackAllowList(LOCAL).events(new JobEvents() {
            @Override
            public void deadLettered(String topic, String id, String lastError) {
                heard.add(topic + "/" + id + ": " + lastError);
            }
        }));
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().signingSecret(SECRET).build());
        hourglass.subscribe(
                TOPIC,
                job -> {
                    throw new NonRetryableException("unreadable order");
                },
                WorkerOptions.builder().concurrency(1).build());
        hourglass.schedule(job("h1").maxAttempts(5).build());

        assertThat(awaitNotice("h1").body()).contains("\"reason\":\"failed\"").contains("unreadable order");
        await().atMost(Duration.ofSeconds(2)).until(() -> !heard.isEmpty());
        assertThat(heard).hasSize(1).first().asString().startsWith("billing/h1: ");
    }

    @Test
    void aPayloadTravelsAsTextWhenItIsUtf8ElseAsBase64(HourglassFactory factory) {
        Hourglass hourglass = delivering(factory);
        hourglass.schedule(job("text").payload("h\u00e9llo \u20ac").build());
        hourglass.schedule(job("bytes")
                .payload(new byte[] {(byte) 0xff, 0, 'a', (byte) 0xc3})
                .build());
        for (Delivery d : hourglass.reserve(TOPIC, 2, null)) {
            hourglass.deadLetter(TOPIC, d.id(), d.receipt(), "unreadable");
        }
        assertThat(field(awaitNotice("text").body(), "payload")).isEqualTo("h\u00e9llo \u20ac");
        String bytes = awaitNotice("bytes").body();
        assertThat(bytes).doesNotContain("\"payload\":");
        // Redis's cjson escapes '/' as '\/'.
        assertThat(field(bytes, "payloadBase64").replace("\\/", "/")).isEqualTo("/wBhww==");
    }

    @Test
    void aFailureUrlIsCheckedLikeACallbackUrl(Hourglass hourglass) {
        assertThatThrownBy(() -> hourglass.schedule(job("ssrf").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("failureCallbackUrl: ");
        assertThatThrownBy(() -> JobRequest.builder(TOPIC).failureCallbackUrl(URI.create("ftp://example.com/x")))
                .hasMessageStartingWith("failureCallbackUrl: ");
        assertThatThrownBy(() -> JobRequest.builder(TOPIC).id("a:failure"))
                .hasMessageStartingWith("id: must not end in ':failure'");
        assertThat(hourglass.get(TOPIC, "ssrf")).isEmpty();
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
        assertThat(m.find()).as("%s in %s", name, json).isTrue();
        return m.group(1);
    }

    private boolean verifies(Notice n) throws GeneralSecurityException {
        String t = null;
        String v2 = null;
        for (String part : n.signature().split(",")) {
            if (part.startsWith("t=")) {
                t = part.substring(2);
            } else if (part.startsWith("v2=")) {
                v2 = part.substring(3);
            }
        }
        String bodyHash = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(n.body().getBytes(StandardCharsets.UTF_8)));
        String canonical = String.join(
                "\n", t, n.topic(), n.jobId(), n.attempt(), failureUrl().toString(), bodyHash);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of()
                .formatHex(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)))
                .equals(v2);
    }
}
