package io.hourglass.internal;

import java.util.concurrent.Semaphore;

/**
 * A worker's handler slots: a semaphore as wide as its concurrency. A claim takes slots before it asks Redis for jobs
 * and never asks for more than it took, so no claimed job waits in a local buffer (back-pressure); each finished
 * handler, and each slot a claim did not fill, is given back, and the {@link TopicWorker} that gave it back offers it
 * to the worker's topics. Thread-safe.
 */
final class HandlerSlots {
    /**
     * The fewest slots a claim beside another waits for when the worker's Redis is a cluster of several masters (unless
     * half the concurrency is fewer). A claim costs a script call's fixed work (about 25 µs of Redis's CPU on a 2-vCPU
     * machine) whatever its size, against 8–11 µs per job: at 8 jobs a claim, that fixed work is about a quarter of the
     * claim's.
     */
    static final int LEAST_BESIDE_A_CLAIM_ON_SEVERAL_MASTERS = 8;

    private final Semaphore free;
    /** Free slots a claim needs while another claim of its topic is in flight ({@link #enoughBesideAClaim}). */
    private final int besideAClaim;

    private volatile boolean stopped;

    /**
     * @param concurrency the worker's handler slots
     * @param maxBatch the most jobs one claim asks for
     * @param masters the Redis masters that serve the worker's shards: 1 on one Redis or Sentinel
     */
    HandlerSlots(int concurrency, int maxBatch, int masters) {
        this.free = new Semaphore(concurrency);
        this.besideAClaim = besideAClaim(concurrency, maxBatch, masters);
    }

    /**
     * Free slots a claim needs while another claim of its topic is in flight: half the concurrency, shared by the
     * masters, each of which runs its own claims at the same time as the others' (so one worker keeps about two claims
     * in flight per master rather than two in all), but no fewer than {@link #LEAST_BESIDE_A_CLAIM_ON_SEVERAL_MASTERS}
     * (or half the concurrency, when that is fewer), and at most a full batch; at least one.
     */
    static int besideAClaim(int concurrency, int maxBatch, int masters) {
        int half = concurrency / 2;
        int share = Math.max(Math.min(half, LEAST_BESIDE_A_CLAIM_ON_SEVERAL_MASTERS), half / Math.max(1, masters));
        return Math.max(1, Math.min(maxBatch, share));
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
     * Whether enough slots are free for a claim while another claim is in flight ({@link #besideAClaim}: on one Redis,
     * half the concurrency, at most a full batch). Fewer wait for that claim's reply and go out with the slots freed
     * meanwhile, so that a burst is claimed in fewer, larger batches.
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
