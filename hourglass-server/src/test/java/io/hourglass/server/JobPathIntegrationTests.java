package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The path of one callback job through the server, from the POST that schedules it to the callback's POST and the
 * script call that carries its ack, as {@link JobPath} records it: the classes on the stack of each step, and which
 * calls between them come from below. ARCHITECTURE.md ("A job's path, schedule to callback") gives the numbers; run
 * this test to see them again (they are printed).
 */
@ServerSettings({"--hourglass.insecure=true", "--hourglass.callback-allow=127.0.0.1"})
class JobPathIntegrationTests extends ServerTestSupport {

    @Test
    void aCallbackJobGoesFromPostToAckWithNoCallFromBelow() {
        JobPath.install();
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            String t = topic();
            // A first job makes the topic known to the server's callback delivery, so that the measured job takes the
            // path that every later job of a topic takes.
            deliver(t, "first", receiver);
            JobPath.start();
            // Due a moment later, so that the wake signal arms the due-time timer and the timer claims the job: the
            // same steps on every run (a job due at once is claimed by whichever comes first).
            deliver(t, "measured", receiver);
            List<JobPath.Step> steps = JobPath.steps(JobPath.stop(), t, "measured");

            System.out.println("A callback job's path, POST to ack:\n" + JobPath.table(steps));
            assertThat(steps.get(0).classes().get(0).getSimpleName()).isEqualTo("JobController");
            assertThat(steps.get(4)
                            .classes()
                            .get(steps.get(4).classes().size() - 1)
                            .getSimpleName())
                    .isEqualTo("CallbackHandler");
            JobPath.Numbers numbers = JobPath.numbers(steps);
            assertThat(numbers.callsFromBelow())
                    .as("calls from a part into one that holds it\n" + JobPath.table(steps))
                    .isZero();
        }
    }

    private static void deliver(String topic, String id, CallbackReceiver receiver) {
        var created = api.post(
                "/v1/topics/" + topic + "/jobs",
                json("id", id, "delayMs", 300, "payload", Map.of("n", 1), "callbackUrl", receiver.url("/hooks/ok")));
        assertThat(created.status()).isEqualTo(201);
        await().atMost(10, TimeUnit.SECONDS).until(() -> !receiver.callsOf(id).isEmpty());
        await().atMost(10, TimeUnit.SECONDS)
                .until(() -> api.get("/v1/topics/" + topic + "/jobs/" + id).status() == 404);
    }
}
