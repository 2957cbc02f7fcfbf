package io.hourglass.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many callback requests of each topic a callback dispatcher lets run at once: a window per topic that halves when
 * the topic's receiver answers {@code 429} or {@code 503} and grows by one request for each window's worth of 2xx
 * answers, up to the dispatcher's concurrency (additive increase, multiplicative decrease, as TCP's congestion window).
 * A receiver that keeps answering {@code 429} therefore gets about as many requests at once as it can take, and one
 * that recovers gets the full concurrency back step by step.
 *
 * <p>Kept in each process rather than in Redis: the slowdown then costs no Redis write per answer, needs no key outside
 * the topic's shards (a Redis Cluster slot of its own), and lasts only as long as the process that saw the answers;
 * several dispatchers of one topic each back off from what they see, as several TCP flows sharing one link do. The
 * topic's stored flow control ({@code TopicConfig}) stays the hard, topic-wide limit. Thread-safe.
 */
final class CallbackPacing {
    private final int ceiling;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    /** @param ceiling the widest a topic's window grows: the dispatcher's concurrency */
    CallbackPacing(int ceiling) {
        this.ceiling = ceiling;
    }

    /** The topic's window, made at its first use. */
    Window of(String topic) {
        return windows.computeIfAbsent(topic, t -> new Window(ceiling));
    }

    /** One topic's window: requests claimed or in flight ({@code held}) stay within {@code size}. */
    static final class Window {
        private final int ceiling;
        private int size;
        private int held;
        private int successes;
        /** Counts the halvings, so that answers to requests sent before the last one do not halve it again. */
        private long generation;

        Window(int ceiling) {
            this.ceiling = ceiling;
            this.size = ceiling;
        }

        /** Takes up to {@code wanted} places in the window; returns how many it took, 0 when it is full. */
        synchronized int take(int wanted) {
            int taken = Math.max(0, Math.min(wanted, size - held));
            held += taken;
            return taken;
        }

        /** Gives back {@code n} places: requests that ended, or places a claim did not fill. */
        synchronized void release(int n) {
            held -= n;
        }

        synchronized boolean hasRoom() {
            return held < size;
        }

        /** The generation to hand back to {@link #throttled} for a request sent now. */
        synchronized long generation() {
            return generation;
        }

        /**
         * The receiver answered {@code 429} or {@code 503} to a request sent in {@code sentIn}: halves the window (at
         * least 1), unless it was already halved since that request was sent.
         */
        synchronized void throttled(long sentIn) {
            if (sentIn == generation) {
                size = Math.max(1, size / 2);
                successes = 0;
                generation++;
            }
        }

        /** The receiver answered 2xx: one request more once a window's worth of them succeeded. */
        synchronized void succeeded() {
            if (size < ceiling && ++successes >= size) {
                size++;
                successes = 0;
            }
        }

        synchronized int size() {
            return size;
        }
    }
}
