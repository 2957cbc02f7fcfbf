package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.NonRetryableException;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A handler that throws {@link NonRetryableException} sends its job to the dead letters at once. */
@RedisTest(shards = 2)
class NonRetryableExceptionIntegrationTests {

    @Test
    void aNonRetryableExceptionDeadLettersTheJobAtOnceWhateverAttemptsRemain(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(Duration.ofMillis(200)));
        Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        hourglass.subscribe("orders", job -> {
            attempts.computeIfAbsent(job.id(), k -> new AtomicInteger()).incrementAndGet();
            switch (job.id()) {
                case "direct" -> throw new NonRetryableException("payload is not an order");
                case "wrapped" ->
                    throw new IllegalStateException(
                            "listener failed",
                            new UncheckedIOException(
                                    "cannot read",
                                    new java.io.IOException(
                                            "bad json", new NonRetryableException("unknown field 'x'"))));
                default -> throw new IllegalStateException("try again");
            }
        });
        for (String id : new String[] {"direct", "wrapped", "retried"}) {
            hourglass.schedule(JobRequest.builder("orders")
                    .id(id)
                    .maxAttempts(10)
                    .backoff(io.hourglass.Backoff.fixed(Duration.ofMillis(100)))
                    .build());
        }

        await().atMost(Duration.ofSeconds(5))
                .until(() ->
                        state(hourglass, "direct") == JobState.DEAD && state(hourglass, "wrapped") == JobState.DEAD);
        JobInfo direct = hourglass.get("orders", "direct").orElseThrow();
        assertThat(direct.attempt()).isEqualTo(1);
        assertThat(direct.lastError()).isEqualTo("io.hourglass.NonRetryableException: payload is not an order");
        JobInfo wrapped = hourglass.get("orders", "wrapped").orElseThrow();
        assertThat(wrapped.attempt()).isEqualTo(1);
        assertThat(wrapped.lastError()).isEqualTo("io.hourglass.NonRetryableException: unknown field 'x'");
        assertThat(attempts.get("direct")).hasValue(1);
        assertThat(attempts.get("wrapped")).hasValue(1);

        // Any other exception is retried on the backoff.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> attempts.get("retried").get() >= 3);
        assertThat(state(hourglass, "retried")).isNotEqualTo(JobState.DEAD);
    }

    @Test
    void findLooksThroughTheCauseChainAndSurvivesALoop() {
        NonRetryableException inner = new NonRetryableException("no", null);
        assertThat(NonRetryableException.find(new RuntimeException(new RuntimeException(inner))))
                .isSameAs(inner);
        assertThat(NonRetryableException.find(new RuntimeException("plain"))).isNull();
        assertThat(NonRetryableException.find(null)).isNull();
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(NonRetryableException.find(a)).isNull();
    }

    private static JobState state(Hourglass hourglass, String id) {
        return hourglass.get("orders", id).map(JobInfo::state).orElse(null);
    }
}
