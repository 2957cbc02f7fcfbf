package io.hourglass.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The namespace's set of topics ({@code hg:{ns}:topics}) as this instance keeps it: registers a topic on its first
 * schedule, registers it again now and then in case the set was lost, and tells the callback dispatchers of topics this
 * instance registers first. Thread-safe.
 */
final class TopicRegistry {
    private static final long REFRESH_NANOS = 5_000_000_000L;

    private final RedisGateway redis;
    private final String topicsKey;
    /** Topics this instance registered, with when (nanoTime): re-registered now and then in case the set was lost. */
    private final Map<String, Long> known = new ConcurrentHashMap<>();

    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();

    TopicRegistry(RedisGateway redis, KeyLayout layout) {
        this.redis = redis;
        this.topicsKey = layout.topicsKey();
    }

    /** Completes once the topic is in the set (at once when this instance registered it recently). */
    CompletableFuture<Void> register(String topic) {
        Long registeredAt = known.get(topic);
        long now = System.nanoTime();
        if (registeredAt == null) {
            // First use: register before the job exists, so whoever lists topics can find the job.
            return redis.addToSet(topicsKey, topic).thenRun(() -> {
                if (known.put(topic, now) == null) {
                    listeners.forEach(l -> l.accept(topic));
                }
            });
        }
        if (now - registeredAt > REFRESH_NANOS) {
            // The set can be lost (FLUSHALL, a restart without persistence): register again, without waiting for it.
            known.put(topic, now);
            redis.addToSet(topicsKey, topic).exceptionally(e -> null);
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Every topic in the namespace's set. Blocks for one Redis call. */
    Set<String> all() {
        return redis.members(topicsKey);
    }

    boolean contains(String topic) {
        return redis.isMember(topicsKey, topic);
    }

    /** Calls {@code listener} with each topic this instance registers first from now on; returns its removal. */
    Runnable onNewTopic(Consumer<String> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }
}
