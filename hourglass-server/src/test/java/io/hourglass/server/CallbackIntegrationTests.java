package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Jobs with a callbackUrl are POSTed there when due, retried on failure and dead-lettered at the end. */
class CallbackIntegrationTests extends ServerTestSupport {
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
      var created = api.post("/v1/topics/" + t + "/jobs", json("id", id, "delayMs", 200 + i * 30,
          "payload", Map.of("n", i), "callbackUrl", receiver.url("/hooks/ok")));
      assertThat(created.status()).isEqualTo(201);
      dueAt.put(id, Instant.parse(created.body().get("dueAt").asText()));
    }

    await().atMost(10, TimeUnit.SECONDS).until(() -> receiver.calls().stream()
        .map(CallbackReceiver.Call::jobId).distinct().count() == 20);

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
      return stats.get("scheduled").asLong() + stats.get("ready").asLong() + stats.get("active").asLong() == 0;
    });
  }

  @Test
  void aFailingReceiverMakesTheJobRetryOnItsBackoffThenDie() {
    String t = topic();
    receiver.answer("/hooks/fail", 500);
    api.post("/v1/topics/" + t + "/jobs", json("id", "doomed", "payload", "x", "maxAttempts", 3,
        "backoffMs", List.of(50, 50), "callbackUrl", receiver.url("/hooks/fail")));

    await().atMost(10, TimeUnit.SECONDS).until(() -> api.get("/v1/topics/" + t + "/dead").body().size() == 1);

    List<CallbackReceiver.Call> calls = receiver.callsOf("doomed");
    assertThat(calls).extracting(CallbackReceiver.Call::attempt).containsExactly(1, 2, 3);
    for (int i = 1; i < calls.size(); i++) {
      assertThat(calls.get(i).receivedAt()).isAfterOrEqualTo(calls.get(i - 1).receivedAt().plusMillis(50));
      assertThat(calls.get(i).receivedAt()).isAfterOrEqualTo(calls.get(i).dueAt());
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
    api.post("/v1/topics/" + t + "/jobs", json("id", "cancel-me", "delayMs", 300, "payload", 1,
        "callbackUrl", receiver.url("/hooks/cancelled")));
    api.post("/v1/topics/" + t + "/jobs", json("id", "keep-me", "delayMs", 600, "payload", 2,
        "callbackUrl", receiver.url("/hooks/kept")));

    assertThat(api.delete("/v1/topics/" + t + "/jobs/cancel-me").status()).isEqualTo(204);

    await().atMost(5, TimeUnit.SECONDS).until(() -> !receiver.callsOf("keep-me").isEmpty());
    Thread.sleep(300);
    Map<String, Long> byPath = receiver.calls().stream()
        .collect(Collectors.groupingBy(CallbackReceiver.Call::path, Collectors.counting()));
    assertThat(byPath).containsOnlyKeys("/hooks/kept");
    assertThat(receiver.callsOf("cancel-me")).isEmpty();
  }
}
