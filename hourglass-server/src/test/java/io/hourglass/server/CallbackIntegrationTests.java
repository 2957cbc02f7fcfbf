package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs with a callbackUrl are POSTed there when due, signed, retried on failure and dead-lettered at the end; only
 * hosts on the allow-list can be reached.
 */
@ServerSettings({
    "--hourglass.insecure=true",
    "--hourglass.callback-secret=" + CallbackIntegrationTests.SECRET,
    "--hourglass.callback-next-secret=" + CallbackIntegrationTests.NEXT_SECRET,
    "--hourglass.callback-allow=127.0.0.1, *.example.com"
})
class CallbackIntegrationTests extends ServerTestSupport {
    static final String SECRET = "whsec-0123456789abcdef";
    static final String NEXT_SECRET = "whsec-next-0123456789abcdef";

    private CallbackReceiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = new CallbackReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void everyCallbackArrivesWithItsHeadersAndNoneBeforeItsDueTime() {
        String t = topic();
        Map<String, Instant> dueAt = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            String id = "cb-" + i;
            var created = api.post(
                    "/v1/topics/" + t + "/jobs",
                    json(
                            "id",
                            id,
                            "delayMs",
                            200 + i * 30,
                            "payload",
                            Map.of("n", i),
                            "callbackUrl",
                            receiver.url("/hooks/ok")));
            assertThat(created.status()).isEqualTo(201);
            dueAt.put(id, Instant.parse(created.body().get("dueAt").asText()));
        }

        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> receiver.calls().stream()
                                .map(CallbackReceiver.Call::jobId)
                                .distinct()
                                .count()
                        == 20);

        for (CallbackReceiver.Call call : receiver.calls()) {
            assertThat(call.path()).isEqualTo("/hooks/ok");
            assertThat(call.topic()).isEqualTo(t);
            assertThat(call.attempt()).isEqualTo(1);
            assertThat(call.dueAt()).isEqualTo(dueAt.get(call.jobId()));
            assertThat(call.receivedAt()).as(call.jobId()).isAfterOrEqualTo(call.dueAt());
            assertThat(call.contentType()).startsWith("application/json");
            int n = Integer.parseInt(call.jobId().substring(3));
            assertThat(call.body()).isEqualTo("{\"n\":" + n + "}");
        }
        await().atMost(5, TimeUnit.SECONDS).until(() -> {
            var stats = api.get("/v1/topics/" + t).body();
            return stats.get("scheduled").asLong()
                            + stats.get("ready").asLong()
                            + stats.get("active").asLong()
                    == 0;
        });
    }

    @Test
    void aFailingReceiverMakesTheJobRetryOnItsBackoffThenDie() {
        String t = topic();
        receiver.answer("/hooks/fail", 500);
        api.post(
                "/v1/topics/" + t + "/jobs",
                json(
                        "id",
                        "doomed",
                        "payload",
                        "x",
                        "maxAttempts",
                        3,
                        "backoffMs",
                        List.of(50, 50),
                        "callbackUrl",
                        receiver.url("/hooks/fail")));

        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> api.get("/v1/topics/" + t + "/dead").body().size() == 1);

        List<CallbackReceiver.Call> calls = receiver.callsOf("doomed");
        assertThat(calls).extracting(CallbackReceiver.Call::attempt).containsExactly(1, 2, 3);
        // Hourglass-Due-At stays the job's original due time; Hourglass-Attempt-Due-At moves with each retry.
        assertThat(calls)
                .extracting(CallbackReceiver.Call::dueAt)
                .containsOnly(calls.get(0).attemptDueAt());
        for (int i = 1; i < calls.size(); i++) {
            assertThat(calls.get(i).receivedAt())
                    .isAfterOrEqualTo(calls.get(i - 1).receivedAt().plusMillis(50));
            assertThat(calls.get(i).attemptDueAt())
                    .isAfterOrEqualTo(calls.get(i - 1).attemptDueAt().plusMillis(50));
            assertThat(calls.get(i).receivedAt()).isAfterOrEqualTo(calls.get(i).attemptDueAt());
        }
        var dead = api.get("/v1/topics/" + t + "/dead").body().get(0);
        assertThat(dead.get("id").asText()).isEqualTo("doomed");
        assertThat(dead.get("state").asText()).isEqualTo("DEAD");
        assertThat(dead.get("attempt").asInt()).isEqualTo(3);
        assertThat(dead.get("lastError").asText()).contains("500");
    }

    @Test
    void aCancelledCallbackJobNeverArrives() throws InterruptedException {
        String t = topic();
        api.post(
                "/v1/topics/" + t + "/jobs",
                json("id", "cancel-me", "delayMs", 300, "payload", 1, "callbackUrl", receiver.url("/hooks/cancelled")));
        api.post(
                "/v1/topics/" + t + "/jobs",
                json("id", "keep-me", "delayMs", 600, "payload", 2, "callbackUrl", receiver.url("/hooks/kept")));

        assertThat(api.delete("/v1/topics/" + t + "/jobs/cancel-me").status()).isEqualTo(204);

        await().atMost(5, TimeUnit.SECONDS)
                .until(() -> !receiver.callsOf("keep-me").isEmpty());
        Thread.sleep(300);
        Map<String, Long> byPath = receiver.calls().stream()
                .collect(Collectors.groupingBy(CallbackReceiver.Call::path, Collectors.counting()));
        assertThat(byPath).containsOnlyKeys("/hooks/kept");
        assertThat(receiver.callsOf("cancel-me")).isEmpty();
    }

    @Test
    void everyCallbackIsSignedSoThatTheReceiverCanVerifyIt() throws Exception {
        String t = topic();
        api.post(
                "/v1/topics/" + t + "/jobs",
                json(
                        "id",
                        "signed",
                        "payload",
                        Map.of("user", 7, "text", "h\u00e9llo"),
                        "callbackUrl",
                        receiver.url("/hooks/signed")));

        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> !receiver.callsOf("signed").isEmpty());

        CallbackReceiver.Call call = receiver.callsOf("signed").get(0);
        String url = receiver.url("/hooks/signed");
        long now = System.currentTimeMillis();
        assertThat(call.signature()).matches("t=\\d+,v2=[0-9a-f]{64},v2=[0-9a-f]{64}");
        assertThat(CallbackSignature.verify(SECRET, call, url, now)).isTrue();
        assertThat(CallbackSignature.verify(NEXT_SECRET, call, url, now))
                .as("the next secret of a rotation")
                .isTrue();
        assertThat(CallbackSignature.verify("another-secret-0123456789", call, url, now))
                .isFalse();
        CallbackReceiver.Call otherBody = new CallbackReceiver.Call(
                call.path(),
                call.receivedAt(),
                call.jobId(),
                call.topic(),
                call.attempt(),
                call.dueAt(),
                call.contentType(),
                call.signature(),
                "{\"user\":8}",
                call.attemptDueAt());
        assertThat(CallbackSignature.verify(SECRET, otherBody, url, now)).isFalse();
        CallbackReceiver.Call otherJob = new CallbackReceiver.Call(
                call.path(),
                call.receivedAt(),
                "another-job",
                call.topic(),
                call.attempt(),
                call.dueAt(),
                call.contentType(),
                call.signature(),
                call.body(),
                call.attemptDueAt());
        assertThat(CallbackSignature.verify(SECRET, otherJob, url, now))
                .as("the same signature under another Hourglass-Job-Id")
                .isFalse();
        assertThat(CallbackSignature.verify(SECRET, call, receiver.url("/hooks/other"), now))
                .as("sent to another URL")
                .isFalse();
        assertThat(CallbackSignature.verify(SECRET, call, url, now + 6 * 60 * 1000))
                .as("replayed later")
                .isFalse();
    }

    @Test
    void theReadmesShellRecipeAcceptsTheSignatureAndRejectsATamperedBody(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("openssl") && onPath("bash"), "needs openssl and bash");
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("```bash\n# T, SIG");
        String recipe = readme.substring(readme.indexOf('\n', start) + 1, readme.indexOf("```", start + 3));
        String t = topic();
        api.post(
                "/v1/topics/" + t + "/jobs",
                json(
                        "id",
                        "shell",
                        "payload",
                        Map.of("n", 1, "s", "caf\u00e9"),
                        "callbackUrl",
                        receiver.url("/hooks/shell")));
        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> !receiver.callsOf("shell").isEmpty());
        CallbackReceiver.Call call = receiver.callsOf("shell").get(0);

        Files.writeString(dir.resolve("body.json"), call.body());
        String url = receiver.url("/hooks/shell");
        assertThat(runRecipe(recipe, dir, call, url)).isEqualTo("valid");
        assertThat(runRecipe(recipe, dir, call, receiver.url("/hooks/elsewhere")))
                .isEqualTo("reject");
        Files.writeString(dir.resolve("body.json"), call.body().replace("1", "2"));
        assertThat(runRecipe(recipe, dir, call, url)).isEqualTo("reject");
    }

    private static String runRecipe(String recipe, Path dir, CallbackReceiver.Call call, String url) throws Exception {
        String signature = call.signature();
        ProcessBuilder bash =
                new ProcessBuilder("bash", "-c", recipe).directory(dir.toFile()).redirectErrorStream(true);
        bash.environment().put("SECRET", SECRET);
        bash.environment().put("T", signature.substring(2, signature.indexOf(',')));
        bash.environment().put("SIG", signature.split(",")[1].substring("v2=".length()));
        bash.environment().put("TOPIC", call.topic());
        bash.environment().put("ID", call.jobId());
        bash.environment().put("ATTEMPT", Integer.toString(call.attempt()));
        bash.environment().put("URL", url);
        Process process = bash.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        process.waitFor(10, TimeUnit.SECONDS);
        return output;
    }

    private static boolean onPath(String command) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }

    @Test
    void aCallbackUrlOutsideTheAllowListIsRefusedAndNothingIsWritten() {
        String jobs = "/v1/topics/" + topic() + "/jobs";
        RedisSnapshot before = snapshot();

        for (String url : List.of(
                "http://127.0.0.2:8080/hook",
                "http://10.0.0.1/hook",
                "http://[::1]:8080/hook",
                "https://example.com/hook",
                "https://example.com.evil.net/hook",
                "http://169.254.169.254/latest")) {
            var refused = api.post(jobs, json("payload", 1, "callbackUrl", url));

            assertThat(refused.status()).as(url + ": " + refused.raw().body()).isEqualTo(400);
            assertThat(refused.error()).as(url).startsWith("callbackUrl: ");
        }
        assertThat(snapshot().keys()).isEqualTo(before.keys());
        assertThat(api.post(
                                jobs,
                                json("payload", 1, "delayMs", 3_600_000, "callbackUrl", "https://hooks.example.com/x"))
                        .status())
                .isEqualTo(201);
    }
}
