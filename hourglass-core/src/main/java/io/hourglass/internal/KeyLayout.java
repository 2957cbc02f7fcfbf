package io.hourglass.internal;

import io.hourglass.StorageFormat;
import io.hourglass.validation.Names;
import java.nio.charset.StandardCharsets;

/**
 * Redis key names of one namespace. Every key a script touches shares the hash tag {@code {ns:topic:shard}}, so each
 * script runs on one Redis Cluster slot, and a topic's S shards spread over the cluster's masters (invariant 7).
 *
 * <pre>
 * hg:{ns:topic:k}:jobs        HASH  id -> job record          hg:{ns:topic:k}:w:waiting    ZSET id -> due ms
 * hg:{ns:topic:k}:errors      HASH  id -> last error          hg:{ns:topic:k}:w:active     ZSET id -> lease deadline ms
 * hg:{ns:topic:k}:dead        ZSET  id -> died at ms          hg:{ns:topic:k}:c:...        the same two, callback lane
 * hg:{ns:topic:k}:seq         STRING delivery counter         hg:{ns:topic:k}:leases       HASH id -> receipt
 * hg:{ns}:topics              SET   topics ever scheduled     channel hg:{ns}:wake:topic   wake signals
 * hg:{ns:topic:k}:paused      STRING set while paused         hg:{ns:topic:k}:history      HASH per-minute counts
 * hg:{ns:topic:k}:events      STREAM completion events (history on)
 * hg:{ns:topic:k}:flow        HASH  rate limit, cap, bucket
 * hg:{ns:topic:k}:w:prio      ZSET  id -> band * 2^42 + due ms: waiting jobs of another priority than the default
 * hg:{ns:topic:k}:c:prio      ZSET  the same, callback lane
 * hg:{ns:topic:k}:completed   ZSET  retained completed id -> end of its retention ms
 * </pre>
 *
 * <p>A waiting job is SCHEDULED until its due time and READY from then on; {@code leases} holds the receipt of each
 * ACTIVE job's delivery in progress.
 */
final class KeyLayout {
    /** The eighteen per-shard key suffixes, in the order every script receives them as KEYS. */
    public static final String[] SHARD_KEY_SUFFIXES =
            StorageFormat.shardKeySuffixes().toArray(String[]::new);

    private final String namespace;
    private final int shards;

    public KeyLayout(String namespace, int shards) {
        this.namespace = Names.checkNamespace(namespace);
        this.shards = shards;
    }

    public String namespace() {
        return namespace;
    }

    public int shards() {
        return shards;
    }

    /** The shard of a job: CRC-32 of the id's UTF-8 bytes modulo the shard count; stable across processes. */
    public int shardOf(String id) {
        return StorageFormat.shardOf(id, shards);
    }

    public String shardPrefix(String topic, int shard) {
        return StorageFormat.shardKeyPrefix(namespace, topic, shard);
    }

    /** The eighteen keys of one shard of a topic, in script order. */
    public byte[][] shardKeys(String topic, int shard) {
        String prefix = shardPrefix(topic, shard);
        byte[][] keys = new byte[SHARD_KEY_SUFFIXES.length][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = (prefix + SHARD_KEY_SUFFIXES[i]).getBytes(StandardCharsets.UTF_8);
        }
        return keys;
    }

    /** The pattern that matches every per-shard key of this namespace, for SCAN. */
    public String shardKeyPattern() {
        return "hg:{" + namespace + ":*";
    }

    public String topicsKey() {
        return "hg:{" + namespace + "}:topics";
    }

    public String wakeChannel(String topic) {
        return "hg:{" + namespace + "}:wake:" + topic;
    }

    public String wakeChannelPrefix() {
        return "hg:{" + namespace + "}:wake:";
    }

    /**
     * The keys of the namespace's recurring schedules, in the order {@code schedules.lua} receives them: definitions,
     * latest fired ticks, version. They share the hash tag {@code {ns}} with {@link #topicsKey()}.
     */
    public byte[][] scheduleKeys() {
        String prefix = "hg:{" + namespace + "}:schedules";
        return new byte[][] {
            prefix.getBytes(StandardCharsets.UTF_8),
            (prefix + ":fired").getBytes(StandardCharsets.UTF_8),
            (prefix + ":version").getBytes(StandardCharsets.UTF_8)
        };
    }
}
