package io.hourglass.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.chaos.CallbackReceiver.Answer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The callback receiver over real HTTP: seeded answers, slow ones held, every answered callback recorded. */
class CallbackReceiverIntegrationTests {
    private static final long SLOW_MS = 400;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private CompletableFuture<HttpResponse<Void>> post(CallbackReceiver receiver, String id, int attempt) {
        HttpRequest request = HttpRequest.newBuilder(receiver.url())
                .header("Hourglass-Topic", "t0")
                .header("Hourglass-Job-Id", id)
                .header("Hourglass-Attempt", Integer.toString(attempt))
                .POST(HttpRequest.BodyPublishers.ofString("{\"job\":\"" + id + "\",\"try\":3}"))
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
    }

    @Test
    void answersEachDeliveryAsSeededHoldsTheSlowOnesAndRecordsWhatItAnswered() throws Exception {
        Map<String, Integer> seen = new HashMap<>();
        try (RecordLog log = new RecordLog(dir.resolve("receiver.history"));
                CallbackReceiver receiver = CallbackReceiver.start(log, 7, SLOW_MS)) {
            List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                answers.add(post(receiver, "j" + i, 1));
            }
            for (int i = 0; i < 200; i++) {
                seen.put("j" + i, answers.get(i).get().statusCode());
            }
            assertThat(post(receiver, "j0", 1).get().statusCode())
                    .as("the same delivery gets the same answer")
                    .isEqualTo(seen.get("j0"));
            assertThat(receiver.completedJobs()).isEqualTo((int)
                    seen.values().stream().filter(s -> s == 200).count());
        }

        History history = History.read(dir);
        assertThat(history.callbacks).hasSize(200);
        Map<CallbackReceiver.Answer, Integer> answers = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            String id = "j" + i;
            CallbackReceiver.Answer answer = CallbackReceiver.answer(7, id, 1);
            answers.merge(answer, 1, Integer::sum);
            CallbackRecord first = history.callbacks.get(History.key("t0", id)).get(0);
            assertThat(first.status()).as(id).isEqualTo(seen.get(id)).isEqualTo(answer == Answer.FAIL ? 500 : 200);
            assertThat(first.attempt()).isEqualTo(1);
            assertThat(first.creatorTry()).isEqualTo(3);
            if (answer == Answer.SLOW) {
                assertThat(first.endMs() - first.startMs()).as(id).isGreaterThanOrEqualTo(SLOW_MS);
            }
        }
        assertThat(answers.get(Answer.FAIL)).as("about 10%% answered 500").isBetween(5, 40);
        assertThat(answers.get(Answer.SLOW)).as("about 10%% answered 200 late").isBetween(5, 40);
    }

    @Test
    void aRequestWithoutTheCallbackHeadersGets400AndIsNotRecorded() throws Exception {
        try (RecordLog log = new RecordLog(dir.resolve("receiver.history"));
                CallbackReceiver receiver = CallbackReceiver.start(log, 7, SLOW_MS)) {
            HttpRequest request = HttpRequest.newBuilder(receiver.url())
                    .POST(HttpRequest.BodyPublishers.ofString("{\"try\":1}"))
                    .build();

            assertThat(http.send(request, HttpResponse.BodyHandlers.discarding())
                            .statusCode())
                    .isEqualTo(400);
        }
        assertThat(History.read(dir).callbacks).isEmpty();
    }
}
