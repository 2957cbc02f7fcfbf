package io.hourglass.server;

import io.hourglass.testkit.InvariantChecker;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every key of a Redis server with its type and whole content, to prove that a request changed nothing: take one
 * before, one after, and compare. Also lists the jobs it holds and what the test kit's invariant checker finds.
 *
 * @param redisUri the server
 * @param keys key to {@code type: content}, sorted
 * @param jobs {@code namespace/topic/id} of every job record
 */
record RedisSnapshot(String redisUri, Map<String, String> keys, Set<String> jobs) {
    /**
     * @param redis a connection to the server (kept open by the caller: a client per snapshot costs ~100 ms)
     * @param redisUri the server's URI, for the invariant checker
     * @return the snapshot
     */
    static RedisSnapshot of(RedisCommands<String, String> redis, String redisUri) {
        Map<String, String> keys = new TreeMap<>();
        Set<String> jobs = new TreeSet<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = redis.scan(cursor, ScanArgs.Builder.limit(1000));
            for (String key : page.getKeys()) {
                keys.put(key, dump(redis, key));
                if (key.startsWith("hg:{") && key.endsWith("}:jobs")) {
                    String[] tag =
                            key.substring(4, key.length() - "}:jobs".length()).split(":");
                    redis.hkeys(key).forEach(id -> jobs.add(tag[0] + "/" + tag[1] + "/" + id));
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        return new RedisSnapshot(redisUri, keys, jobs);
    }

    /** @return what the test kit's {@link InvariantChecker} finds on the server now; empty when all hold */
    List<String> violations() {
        return InvariantChecker.check(redisUri);
    }

    private static String dump(RedisCommands<String, String> redis, String key) {
        String type = redis.type(key);
        Object content =
                switch (type) {
                    case "string" -> redis.get(key);
                    case "hash" -> new TreeMap<>(redis.hgetall(key));
                    case "set" -> new TreeSet<>(redis.smembers(key));
                    case "zset" ->
                        redis.zrangeWithScores(key, 0, -1).stream()
                                .map(v -> v.getValue() + "=" + v.getScore())
                                .toList();
                    case "list" -> redis.lrange(key, 0, -1);
                    default -> "?";
                };
        return type + ": " + content;
    }
}
