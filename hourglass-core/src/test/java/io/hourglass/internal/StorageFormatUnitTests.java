package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.StorageFormat;
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
        assertThatThrownBy(() -> StorageFormat.decode("x|1\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed number");
        assertThatThrownBy(() -> StorageFormat.decode("no header".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
