package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyLayoutUnitTests {

    @Test
    void everyKeyOfAShardSharesOneHashTag() {
        KeyLayout layout = new KeyLayout("app", 4);
        for (byte[] key : layout.shardKeys("orders", 3)) {
            String k = new String(key, StandardCharsets.UTF_8);
            assertThat(k.substring(k.indexOf('{'), k.indexOf('}') + 1)).isEqualTo("{app:orders:3}");
        }
    }

    @Test
    void shardsAreStableAndSpreadIds() {
        KeyLayout layout = new KeyLayout("app", 4);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            int shard = layout.shardOf("job-" + i);
            assertThat(shard).isBetween(0, 3).isEqualTo(new KeyLayout("other", 4).shardOf("job-" + i));
            seen.add(shard);
        }
        assertThat(seen).hasSize(4);
        assertThat(new KeyLayout("app", 1).shardOf("anything")).isZero();
    }
}
