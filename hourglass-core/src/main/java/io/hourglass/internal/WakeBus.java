package io.hourglass.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes wake signals ("lane:shard:dueMs", published by scripts when a job becomes ready or the earliest scheduled one)
 * to this process's listeners of that topic and lane. One pattern subscription serves the whole namespace. A lost
 * signal only delays a job until the next backstop sweep. Whoever owns a listener registers it, so a listener need not
 * know this bus.
 */
final class WakeBus {
    private static final Logger log = LoggerFactory.getLogger(WakeBus.class);

    /** Receives the wake signals of one topic's lane. Called on a Lettuce thread: must not block. */
    interface Listener {
        void wake(int shard, long dueMs);
    }

    private record Registration(Lane lane, Listener listener) {}

    private final Map<String, Set<Registration>> listeners = new ConcurrentHashMap<>();
    private final String channelPrefix;

    WakeBus(String channelPrefix) {
        this.channelPrefix = channelPrefix;
    }

    /** Passes the wake signals of {@code topic}'s {@code lane} to {@code listener}; returns its removal. */
    Runnable register(String topic, Lane lane, Listener listener) {
        Registration registration = new Registration(lane, listener);
        listeners.computeIfAbsent(topic, t -> new CopyOnWriteArraySet<>()).add(registration);
        return () -> {
            Set<Registration> set = listeners.get(topic);
            if (set != null) {
                set.remove(registration);
            }
        };
    }

    /** Handles a message from the pub/sub connection. */
    void onMessage(String channel, String message) {
        if (!channel.startsWith(channelPrefix)) {
            return;
        }
        publishLocally(channel.substring(channelPrefix.length()), message);
    }

    void publishLocally(String topic, String message) {
        Set<Registration> set = listeners.get(topic);
        if (set == null || set.isEmpty()) {
            return;
        }
        String[] parts = message.split(":", 3);
        try {
            Lane lane = Lane.of(Integer.parseInt(parts[0]));
            int shard = Integer.parseInt(parts[1]);
            long due = Long.parseLong(parts[2]);
            for (Registration r : set) {
                if (r.lane() == lane) {
                    r.listener().wake(shard, due);
                }
            }
        } catch (RuntimeException e) {
            log.debug("ignoring malformed wake signal '{}' for topic {}", message, topic, e);
        }
    }
}
