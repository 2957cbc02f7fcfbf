package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.CallbackOptions;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a receiver's {@code Retry-After} asks for, and how a topic's window of callback requests narrows and widens. */
class PoliteCallbackUnitTests {
    private static final long NOW = Instant.parse("2026-11-26T10:00:00.250Z").toEpochMilli();

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDateAndCappedAtAnHour() {
        assertThat(CallbackHandler.retryAfterMs("120", NOW)).isEqualTo(120_000);
        assertThat(CallbackHandler.retryAfterMs(" 0 ", NOW)).isZero();
        assertThat(CallbackHandler.retryAfterMs("Thu, 26 Nov 2026 10:00:30 GMT", NOW))
                .isEqualTo(29_750);
        assertThat(CallbackHandler.retryAfterMs("Thu, 26 Nov 2026 09:00:00 GMT", NOW))
                .as("a date already past: now")
                .isZero();
        long cap = CallbackOptions.MAX_RETRY_AFTER.toMillis();
        assertThat(CallbackHandler.retryAfterMs("86400", NOW)).isEqualTo(cap);
        assertThat(CallbackHandler.retryAfterMs("99999999999999999999999", NOW)).isEqualTo(cap);
        assertThat(CallbackHandler.retryAfterMs("Fri, 27 Nov 2026 10:00:00 GMT", NOW))
                .isEqualTo(cap);
        assertThat(CallbackHandler.retryAfterMs(null, NOW)).as("absent").isEqualTo(-1);
        assertThat(CallbackHandler.retryAfterMs("-5", NOW)).as("malformed").isEqualTo(-1);
        assertThat(CallbackHandler.retryAfterMs("soon", NOW)).isEqualTo(-1);
        assertThat(CallbackHandler.retryAfterMs("", NOW)).isEqualTo(-1);
    }

    @Test
    void aWindowHalvesOncePerRoundOfThrottledRequestsAndGrowsByOnePerWindowOfSuccesses() {
        CallbackPacing.Window w = new CallbackPacing(16).of("t");
        assertThat(w.take(20)).as("the whole concurrency at first").isEqualTo(16);
        assertThat(w.hasRoom()).isFalse();
        long sent = w.generation();
        for (int i = 0; i < 16; i++) {
            w.throttled(sent);
        }
        assertThat(w.size())
                .as("16 answers to requests sent together halve it once")
                .isEqualTo(8);
        w.throttled(w.generation());
        assertThat(w.size())
                .as("a request sent after the halving halves it again")
                .isEqualTo(4);
        w.release(16);
        assertThat(w.take(10)).isEqualTo(4);
        w.release(4);

        for (int i = 0; i < 3; i++) {
            w.succeeded();
        }
        assertThat(w.size()).isEqualTo(4);
        w.succeeded();
        assertThat(w.size()).as("four successes at a window of four").isEqualTo(5);
        for (int i = 0; i < 1000; i++) {
            w.succeeded();
        }
        assertThat(w.size()).as("never past the concurrency").isEqualTo(16);
        for (int i = 0; i < 10; i++) {
            w.throttled(w.generation());
        }
        assertThat(w.size()).as("never below one").isEqualTo(1);
        assertThat(new CallbackPacing(16).of("other").size())
                .as("a window per topic")
                .isEqualTo(16);
    }
}
