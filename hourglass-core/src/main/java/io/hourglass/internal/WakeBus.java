package io.hourglass.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes wake signals ("lane:shard:dueMs", published by scripts when a job becomes ready or the earliest scheduled one)
 * to this process's listeners of that topic. One pattern subscription serves the whole namespace. A lost signal only
 * delays a job until the next backstop sweep.
 */
final class WakeBus {
    private static final Logger log = LoggerFactory.getLogger(WakeBus.class);

    /** Receives a wake signal. Called on a Lettuce thread: must not block. */
    interface Listener {
        void wake(Lane lane, int shard, long dueMs);
    }

    private final Map<String, Set<Listener>> listeners = new ConcurrentHashMap<>();
    private final String channelPrefix;

    WakeBus(String channelPrefix) {
        this.channelPrefix = channelPrefix;
    }

    void register(String topic, Listener listener) {
        listeners.computeIfAbsent(topic, t -> new CopyOnWriteArraySet<>()).add(listener);
    }

    void unregister(String topic, Listener listener) {
        Set<Listener> set = listeners.get(topic);
        if (set != null) {
            set.remove(listener);
        }
    }

    /** Handles a message from the pub/sub connection. */
    void onMessage(String channel, String message) {
        if (!channel.startsWith(channelPrefix)) {
            return;
        }
        publishLocally(channel.substring(channelPrefix.length()), message);
    }

    void publishLocally(String topic, String message) {
        Set<Listener> set = listeners.get(topic);
        if (set == null || set.isEmpty()) {
            return;
        }
        String[] parts = message.split(":", 3);
        try {
            Lane lane = Lane.of(Integer.parseInt(parts[0]));
            int shard = Integer.parseInt(parts[1]);
            long due = Long.parseLong(parts[2]);
            for (Listener l : set) {
                l.wake(lane, shard, due);
            }
        } catch (RuntimeException e) {
            log.debug("ignoring malformed wake signal '{}' for topic {}", message, topic, e);
        }
    }
}
