package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code --wait-for-replicas}: the test's Redis has no replica, so every write that creates a job waits out the timeout
 * and is answered 503, though the job was written.
 */
@ServerSettings({
    "--hourglass.insecure=true",
    "--hourglass.wait-for-replicas=1",
    "--hourglass.replica-wait-timeout-ms=100"
})
class ReplicaWaitIntegrationTests extends ServerTestSupport {

    @Test
    void tooFewReplicasGive503SayingTheJobWasWrittenSoThatARetryKeepsIt() {
        String topic = topic();
        var answer = api.post("/v1/topics/" + topic + "/jobs", json("id", "once", "payload", 1, "delayMs", 600_000));

        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.raw().headers().firstValue("Retry-After")).hasValue("1");
        assertThat(answer.error())
                .startsWith("replication: the write WAS applied (a new job was written)")
                .contains("only 0 of 1 replicas confirmed it within 100 ms")
                .contains("onConflict=keep");
        assertThat(api.get("/v1/topics/" + topic + "/jobs/once").status()).isEqualTo(200);
    }
}
