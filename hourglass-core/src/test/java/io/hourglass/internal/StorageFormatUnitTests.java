package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.OnExpiry;
import io.hourglass.StorageFormat;
import io.hourglass.validation.Names;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The public, read-only {@link StorageFormat} describes exactly what the implementation writes and sends. */
class StorageFormatUnitTests {

    @Test
    void keysAndShardsAreTheOnesTheImplementationUses() {
        KeyLayout layout = new KeyLayout("app", 8);
        assertThat(StorageFormat.shardKeySuffixes()).containsExactly(KeyLayout.SHARD_KEY_SUFFIXES);
        for (int i = 0; i < 50; i++) {
            String id = "job-" + i;
            assertThat(StorageFormat.shardOf(id, 8)).isEqualTo(layout.shardOf(id));
        }
        assertThat(new String(layout.shardKeys("orders", 3)[0], StandardCharsets.UTF_8))
                .isEqualTo(StorageFormat.shardKeyPrefix("app", "orders", 3) + "jobs");
    }

    @Test
    void scriptShasAreTheOnesSentToRedis() {
        for (Script s : Script.values()) {
            String name = s.fileName().replace(".lua", "");
            assertThat(StorageFormat.scriptSha(name)).as(name).isEqualTo(s.sha());
        }
        assertThatThrownBy(() -> StorageFormat.scriptSha("nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope.lua");
    }

    @Test
    void aRecordDecodesWithItsStoredDefaultsAndABadOneIsRefused() {
        StorageFormat.StoredRecord r = StorageFormat.decode(
                "1795000000000||||1000|https://x.example/cb\npay".getBytes(StandardCharsets.UTF_8));
        assertThat(List.of(r.dueMs(), r.failedAttempts(), r.maxAttempts(), r.leaseMs()))
                .containsExactly(
                        1795000000000L,
                        0,
                        StorageFormat.STORED_DEFAULT_MAX_ATTEMPTS,
                        StorageFormat.STORED_DEFAULT_LEASE_MS);
        assertThat(r.backoff()).isEqualTo("1000");
        assertThat(r.callbackUrl()).isEqualTo("https://x.example/cb");
        assertThat(new String(r.payload(), StandardCharsets.UTF_8)).isEqualTo("pay");
        assertThatThrownBy(() -> StorageFormat.decode("1x|1\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed number");
        assertThatThrownBy(() -> StorageFormat.decode("1795000000000".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without a header line");
    }

    @Test
    void aBareRecordIsItsPayloadAloneWithEveryFieldAtItsDefaultAndItsDueTimeFromElsewhere() {
        for (String bare : List.of("", "pay", "{\"a\":1}", "|1\n", "\n1")) {
            byte[] raw = bare.getBytes(StandardCharsets.UTF_8);
            assertThat(StorageFormat.isBare(raw)).as(bare).isTrue();
            StorageFormat.StoredRecord r = StorageFormat.decode(raw, 1795000000000L);
            assertThat(List.of(r.dueMs(), r.originalDueMs(), r.expiresAtMs(), r.leaseMs()))
                    .containsExactly(1795000000000L, 1795000000000L, 0L, StorageFormat.STORED_DEFAULT_LEASE_MS);
            assertThat(List.of(r.failedAttempts(), r.maxAttempts(), r.priority(), r.deferrals()))
                    .containsExactly(0, StorageFormat.STORED_DEFAULT_MAX_ATTEMPTS, 0, 0);
            assertThat(r.callbackUrl() + r.backoff() + r.failureCallbackUrl()).isEmpty();
            assertThat(r.payload()).isEqualTo(raw);
            assertThatThrownBy(() -> StorageFormat.decode(raw))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bare");
        }
        for (String headed : List.of("1795000000000\npay", "-5\n", "0|1\n")) {
            byte[] raw = headed.getBytes(StandardCharsets.UTF_8);
            assertThat(StorageFormat.isBare(raw)).as(headed).isFalse();
            assertThat(StorageFormat.decode(raw, 7).dueMs())
                    .isEqualTo(StorageFormat.decode(raw).dueMs());
        }
    }

    @Test
    void aReceiptCarriesTheDueTimeOfABareRecordOnly() {
        assertThat(StorageFormat.dueOfReceipt("12-8f00aa~@1795000000000")).hasValue(1795000000000L);
        assertThat(StorageFormat.dueOfReceipt("12-8f00aa~@1.795e+12")).hasValue(1795000000000L);
        assertThat(StorageFormat.dueOfReceipt("12-8f00aa~600000")).isEmpty();
        assertThat(StorageFormat.dueOfReceipt("12-8f00aa~")).isEmpty();
        assertThat(StorageFormat.dueOfReceipt("12-8f00aa~@")).isEmpty();
        assertThat(StorageFormat.dueOfReceipt("12-8f00aa~@soon")).isEmpty();
    }

    @Test
    void aRecordWrittenBeforeTheExpiryFieldsReadsWithTheirDefaults() {
        StorageFormat.StoredRecord old = StorageFormat.decode(
                "1795000000000|2||||https://x.example/cb|60000\npay".getBytes(StandardCharsets.UTF_8));
        assertThat(old.idempotencyWindowMs()).isEqualTo(60_000);
        assertThat(old.originalDueMs()).as("the due time, when none is stored").isEqualTo(1795000000000L);
        assertThat(old.expiresAtMs()).isZero();
        assertThat(old.onExpiry()).isEqualTo(OnExpiry.DEAD_LETTER);
        assertThat(old.failureCallbackUrl()).isEmpty();
    }

    @Test
    void theExpiryFieldsAndTheOriginalDueTimeDecode() {
        StorageFormat.StoredRecord r = StorageFormat.decode(
                "1795000009000|1||||||1795000000000|1795000060000|drop|https://x.example/failed\n{}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(r.dueMs()).isEqualTo(1795000009000L);
        assertThat(r.idempotencyWindowMs()).isEqualTo(StorageFormat.STORED_DEFAULT_IDEMPOTENCY_WINDOW_MS);
        assertThat(r.originalDueMs()).isEqualTo(1795000000000L);
        assertThat(r.expiresAtMs()).isEqualTo(1795000060000L);
        assertThat(r.onExpiry()).isEqualTo(OnExpiry.DROP);
        assertThat(r.failureCallbackUrl()).isEqualTo("https://x.example/failed");
        assertThatThrownBy(() -> StorageFormat.decode("1||||||||1|later\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("onExpiry");
        assertThatThrownBy(() -> StorageFormat.decode("1||||||||||||||\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 14");
    }

    @Test
    void aPriorityPutsAWaitingJobInItsBandOfThePrioSet() {
        StorageFormat.StoredRecord plain = StorageFormat.decode("1795000000000\n".getBytes(StandardCharsets.UTF_8));
        StorageFormat.StoredRecord high =
                StorageFormat.decode("1795000000000|||||||||||5\n".getBytes(StandardCharsets.UTF_8));
        StorageFormat.StoredRecord low = StorageFormat.decode(
                "1795000000000|||||https://x.example/cb||||||-5\n".getBytes(StandardCharsets.UTF_8));
        assertThat(plain.priority()).isZero();
        assertThat(List.of(high.priority(), low.priority())).containsExactly(5, -5);
        assertThat(StorageFormat.waitingSuffix(plain)).isEqualTo("w:waiting");
        assertThat(StorageFormat.waitingScore(plain)).isEqualTo(1795000000000L);
        assertThat(StorageFormat.waitingSuffix(high)).isEqualTo("w:prio");
        assertThat(StorageFormat.waitingScore(high)).isEqualTo(1795000000000L);
        assertThat(StorageFormat.waitingSuffix(low)).isEqualTo("c:prio");
        assertThat(StorageFormat.waitingScore(low)).isEqualTo(10 * (1L << 42) + 1795000000000L);
        assertThat(StorageFormat.waitingScore(low)).as("an exact double").isLessThan(1L << 53);
    }

    @Test
    void theDeferralsAndTheDispatchDeadlineAreFieldsThirteenAndFourteenAndDefaultToZero() {
        StorageFormat.StoredRecord r = StorageFormat.decode(
                "1795000000000|||||https://x.example/cb||||||5|3|2500\n{}".getBytes(StandardCharsets.UTF_8));
        assertThat(r.deferrals()).isEqualTo(3);
        assertThat(r.dispatchDeadlineMs()).isEqualTo(2500);
        StorageFormat.StoredRecord plain = StorageFormat.decode("1795000000000\n{}".getBytes(StandardCharsets.UTF_8));
        assertThat(plain.deferrals()).isZero();
        assertThat(plain.dispatchDeadlineMs()).isZero();
    }

    @Test
    void aFailureNoticeIsInTheShardOfItsJob() {
        for (int i = 0; i < 50; i++) {
            String id = "job-" + i;
            assertThat(StorageFormat.shardOf(id + StorageFormat.FAILURE_NOTICE_SUFFIX, 8))
                    .isEqualTo(StorageFormat.shardOf(id, 8));
        }
        assertThat(StorageFormat.FAILURE_NOTICE_SUFFIX).isEqualTo(Names.FAILURE_NOTICE_SUFFIX);
    }
}
