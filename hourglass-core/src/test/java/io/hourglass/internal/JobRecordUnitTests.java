package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.HourglassBuilder;
import io.hourglass.StorageFormat;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JobRecordUnitTests {

    @Test
    void decodesTheHeaderAndKeepsPayloadBytesVerbatim() {
        byte[] raw = "1700000000123|2|10|30000||http://h/cb\n{\"a\":\"|\\n\"}\u0000x".getBytes(StandardCharsets.UTF_8);
        JobRecord r = JobRecord.decode(raw);
        assertThat(r.dueMs()).isEqualTo(1700000000123L);
        assertThat(r.failedAttempts()).isEqualTo(2);
        assertThat(r.maxAttempts()).isEqualTo(10);
        assertThat(r.leaseMs()).isEqualTo(30000);
        assertThat(r.backoff()).isEmpty();
        assertThat(r.callbackUrl()).isEqualTo("http://h/cb");
        assertThat(r.lane()).isEqualTo(Lane.CALLBACK);
        assertThat(new String(r.payload(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":\"|\\n\"}\u0000x");
    }

    @Test
    void emptyAndMissingFieldsStandForTheStoredDefaults() {
        JobRecord r = JobRecord.decode("1700000000123\npayload".getBytes(StandardCharsets.UTF_8));
        assertThat(r)
                .extracting(
                        JobRecord::dueMs,
                        JobRecord::failedAttempts,
                        JobRecord::maxAttempts,
                        JobRecord::leaseMs,
                        JobRecord::backoff,
                        JobRecord::callbackUrl)
                .containsExactly(
                        1700000000123L,
                        0,
                        JobRecord.STORED_DEFAULT_MAX_ATTEMPTS,
                        JobRecord.STORED_DEFAULT_LEASE_MS,
                        "",
                        "");
        assertThat(r.lane()).isEqualTo(Lane.WORKER);

        JobRecord callback = JobRecord.decode("5||||2000|http://h/cb\n".getBytes(StandardCharsets.UTF_8));
        assertThat(callback.failedAttempts()).isZero();
        assertThat(callback.maxAttempts()).isEqualTo(JobRecord.STORED_DEFAULT_MAX_ATTEMPTS);
        assertThat(callback.backoff()).isEqualTo("2000");
        assertThat(callback.callbackUrl()).isEqualTo("http://h/cb");
        assertThat(callback.payload()).isEmpty();
    }

    @Test
    void refusesAHeaderWithTooManyFields() {
        assertThatThrownBy(() ->
                        JobRecord.decode("1|2|3|4|5|6|7|8|9|drop|11|12|13|14|15\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("15 fields");
    }

    @Test
    void theSeventhFieldIsTheIdempotencyWindowAndEmptyMeansOneHour() {
        assertThat(StorageFormat.decode("1|||||http://h/cb|0\n".getBytes(StandardCharsets.UTF_8))
                        .idempotencyWindowMs())
                .isZero();
        assertThat(StorageFormat.decode("1||||||90000\n".getBytes(StandardCharsets.UTF_8))
                        .idempotencyWindowMs())
                .isEqualTo(90_000);
        assertThat(StorageFormat.decode("1\n".getBytes(StandardCharsets.UTF_8)).idempotencyWindowMs())
                .isEqualTo(StorageFormat.STORED_DEFAULT_IDEMPOTENCY_WINDOW_MS)
                .isEqualTo(HourglassBuilder.DEFAULT_IDEMPOTENCY_WINDOW.toMillis());
    }

    @Test
    void anActiveJobIsOnTheAttemptAfterItsFailedOnes() {
        JobRecord r = JobRecord.decode("1700000000123|2\n".getBytes(StandardCharsets.UTF_8));
        assertThat(r.attempt(true)).isEqualTo(3);
        assertThat(r.attempt(false)).isEqualTo(2);
    }

    @Test
    void refusesARecordWithoutHeaderUnlessItsLeaseCarriesItsDueTime() {
        byte[] bare = "no header".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> JobRecord.decode(bare)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> JobRecord.decodeLeased(bare, "3-ab~"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without its due time");
        JobRecord leased = JobRecord.decodeLeased(bare, "3-ab~@1700000000123");
        assertThat(leased.dueMs()).isEqualTo(1700000000123L);
        assertThat(leased.originalDueMs()).isEqualTo(1700000000123L);
        assertThat(leased.lane()).isEqualTo(Lane.WORKER);
        assertThat(new String(leased.payload(), StandardCharsets.UTF_8)).isEqualTo("no header");
        assertThat(JobRecord.decodeLeased("1700000000123\n9".getBytes(StandardCharsets.UTF_8), "3-ab~")
                        .dueMs())
                .isEqualTo(1700000000123L);
    }
}
