package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.spring.listener.HourglassCallbackDelivery;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/** {@code --callback-virtual-threads} reaches the starter's callback delivery, which still POSTs every job. */
@EnabledForJreRange(min = JRE.JAVA_21)
@ServerSettings({
    "--hourglass.insecure=true",
    "--hourglass.callback-virtual-threads=true",
    "--hourglass.callback-allow=127.0.0.1"
})
class CallbackVirtualThreadsIntegrationTests extends ServerTestSupport {

    @Test
    void callbacksAreSentFromVirtualThreads() {
        assertThat(context.getBean(HourglassCallbackDelivery.class).options().virtualThreads())
                .isTrue();
        String t = topic();
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            for (int i = 0; i < 5; i++) {
                assertThat(api.post(
                                        "/v1/topics/" + t + "/jobs",
                                        json("id", "v" + i, "payload", i, "callbackUrl", receiver.url("/hooks/v" + i)))
                                .status())
                        .isEqualTo(201);
            }
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                for (int i = 0; i < 5; i++) {
                    assertThat(receiver.callsOf("v" + i)).hasSize(1);
                }
            });
        }
    }
}
