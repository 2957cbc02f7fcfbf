package io.hourglass.it;

import io.hourglass.StorageFormat;
import io.hourglass.testkit.RedisTest;
import java.util.ArrayList;
import java.util.List;

/** Ids that fall on shard 0 of a suite's topic, so that what one shard does is what a test sees. */
final class OneShardIds {
    private OneShardIds() {}

    /**
     * @param suite a test instance whose class carries {@link RedisTest} (its shard count decides)
     * @param prefix the ids' prefix; each id is the prefix and a number
     * @param n how many ids
     * @return {@code n} ids on shard 0, in ascending number
     */
    static List<String> of(Object suite, String prefix, int n) {
        int shards = suite.getClass().getAnnotation(RedisTest.class).shards();
        List<String> ids = new ArrayList<>();
        for (int i = 0; ids.size() < n; i++) {
            if (StorageFormat.shardOf(prefix + i, shards) == 0) {
                ids.add(prefix + i);
            }
        }
        return ids;
    }
}
