package io.hourglass.internal;

import java.util.concurrent.Semaphore;

/**
 * A worker's handler slots: a semaphore as wide as its concurrency. A claim takes slots before it asks Redis for jobs
 * and never asks for more than it took, so no claimed job waits in a local buffer (back-pressure); each finished
 * handler, and each slot a claim did not fill, is given back, and the {@link TopicWorker} that gave it back offers it
 * to the worker's topics. Thread-safe.
 */
final class HandlerSlots {
    private final Semaphore free;
    /** Free slots a claim needs while another claim of its topic is in flight ({@link #enoughBesideAClaim}). */
    private final int besideAClaim;

    private volatile boolean stopped;

    HandlerSlots(int concurrency, int maxBatch) {
        this.free = new Semaphore(concurrency);
        this.besideAClaim = Math.max(1, Math.min(maxBatch, concurrency / 2));
    }

    /** Takes up to {@code max} free slots without waiting; returns how many it took. */
    int take(int max) {
        int taken = 0;
        while (taken < max && free.tryAcquire()) {
            taken++;
        }
        return taken;
    }

    /**
     * Whether enough slots are free for a claim while another claim is in flight: half the concurrency (at most a full
     * batch). Fewer wait for that claim's reply and go out with the slots freed meanwhile, so that a burst is claimed
     * in fewer, larger batches.
     */
    boolean enoughBesideAClaim() {
        return free.availablePermits() >= besideAClaim;
    }

    boolean hasFree() {
        return free.availablePermits() > 0;
    }

    /** Gives {@code n} slots back; returns whether to offer them to the worker's topics (not once it is closing). */
    boolean release(int n) {
        if (n <= 0) {
            return false;
        }
        free.release(n);
        return !stopped;
    }

    /** Freed slots are offered to no topic from now on (the worker is closing). */
    void stop() {
        stopped = true;
    }
}
