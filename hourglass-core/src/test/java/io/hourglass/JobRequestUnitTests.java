package io.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JobRequestUnitTests {

    @Test
    void defaultsToDueNowWithNoIdAndRejectOnConflict() {
        JobRequest r = JobRequest.builder("orders").build();
        assertThat(r.delay()).isEqualTo(Duration.ZERO);
        assertThat(r.runAt()).isNull();
        assertThat(r.id()).isNull();
        assertThat(r.payload()).isEmpty();
        assertThat(r.onConflict()).isEqualTo(OnConflict.REJECT);
    }

    @Test
    void runAtAndDelayReplaceEachOther() {
        Instant at = Instant.parse("2030-01-01T00:00:00Z");
        JobRequest r =
                JobRequest.builder("t").delay(Duration.ofSeconds(1)).runAt(at).build();
        assertThat(r.runAt()).isEqualTo(at);
        assertThat(r.delay()).isNull();
    }

    @Test
    void theCallerCannotChangeThePayloadAfterwards() {
        byte[] payload = {1, 2, 3};
        JobRequest r = JobRequest.builder("t").payload(payload).build();
        payload[0] = 9;
        assertThat(r.payload()).containsExactly(1, 2, 3);
    }

    @Test
    void badFieldsAreRefusedByName() {
        assertThatThrownBy(() -> JobRequest.builder("bad topic")).hasMessageStartingWith("topic:");
        assertThatThrownBy(() -> JobRequest.builder("{ns}")).hasMessageStartingWith("topic:");
        assertThatThrownBy(() -> JobRequest.builder("a".repeat(101))).hasMessageStartingWith("topic:");
        assertThatThrownBy(() -> JobRequest.builder("t").id("has space")).hasMessageStartingWith("id:");
        assertThatThrownBy(() -> JobRequest.builder("t").id("x".repeat(129))).hasMessageStartingWith("id:");
        assertThatThrownBy(() -> JobRequest.builder("t").delay(Duration.ofMillis(-1)))
                .hasMessageStartingWith("delay:");
        assertThatThrownBy(() -> JobRequest.builder("t").maxAttempts(0)).hasMessageStartingWith("maxAttempts:");
        assertThatThrownBy(() -> JobRequest.builder("t").lease(Duration.ZERO)).hasMessageStartingWith("lease:");
        assertThatThrownBy(() -> JobRequest.builder("t").callbackUrl(URI.create("ftp://host/x")))
                .hasMessageStartingWith("callbackUrl:");
        assertThatThrownBy(() -> JobRequest.builder("t").callbackUrl(URI.create("/relative")))
                .hasMessageStartingWith("callbackUrl:");
        assertThatThrownBy(() -> JobRequest.builder("t").payload((byte[]) null)).hasMessageStartingWith("payload:");
        assertThatThrownBy(() -> JobRequest.builder("t").id("a:failure")).hasMessageStartingWith("id: must not end");
        assertThatThrownBy(() -> JobRequest.builder("t").ttl(Duration.ZERO)).hasMessageStartingWith("ttl:");
        assertThatThrownBy(() -> JobRequest.builder("t").ttl(Duration.ofDays(3651)))
                .hasMessageStartingWith("ttl:");
        assertThatThrownBy(() -> JobRequest.builder("t").onExpiry(null)).hasMessageStartingWith("onExpiry:");
        assertThatThrownBy(() -> JobRequest.builder("t").dispatchDeadline(Duration.ZERO))
                .hasMessageStartingWith("dispatchDeadline:");
        assertThatThrownBy(() -> JobRequest.builder("t").dispatchDeadline(Duration.ofHours(25)))
                .hasMessageStartingWith("dispatchDeadline:");
        assertThatThrownBy(() -> JobRequest.builder("t")
                        .dispatchDeadline(Duration.ofSeconds(5))
                        .build())
                .as("a worker job has no callback request to bound")
                .hasMessageStartingWith("dispatchDeadline:");
        assertThat(JobRequest.builder("t")
                        .callbackUrl(URI.create("https://example.com/cb"))
                        .dispatchDeadline(Duration.ofSeconds(5))
                        .build()
                        .dispatchDeadline())
                .isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> JobRequest.builder("t").failureCallbackUrl(URI.create("ftp://host/x")))
                .hasMessageStartingWith("failureCallbackUrl:");
    }

    @Test
    void expiresAtAndTtlReplaceEachOtherAndExpiryDeadLettersByDefault() {
        Instant at = Instant.parse("2030-01-01T00:00:00Z");
        JobRequest r =
                JobRequest.builder("t").ttl(Duration.ofMinutes(5)).expiresAt(at).build();
        assertThat(r.expiresAt()).isEqualTo(at);
        assertThat(r.ttl()).isNull();
        assertThat(r.onExpiry()).isEqualTo(OnExpiry.DEAD_LETTER);
        JobRequest t =
                JobRequest.builder("t").expiresAt(at).ttl(Duration.ofMinutes(5)).build();
        assertThat(t.expiresAt()).isNull();
        assertThat(t.ttl()).isEqualTo(Duration.ofMinutes(5));
        assertThat(JobRequest.builder("t").build().failureCallbackUrl()).isNull();
    }

    @Test
    void aPriorityIsMinus5To5AndDefaultsTo0() {
        assertThat(JobRequest.builder("t").build().priority()).isZero();
        assertThat(JobRequest.builder("t").priority(-5).build().priority()).isEqualTo(-5);
        assertThat(JobRequest.builder("t").priority(5).build().priority()).isEqualTo(5);
        assertThatThrownBy(() -> JobRequest.builder("t").priority(6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("priority:");
        assertThatThrownBy(() -> JobRequest.builder("t").priority(-6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("priority:");
    }
}
