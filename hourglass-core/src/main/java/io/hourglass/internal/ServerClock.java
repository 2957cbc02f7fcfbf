package io.hourglass.internal;

/**
 * This process's estimate of the Redis server's clock, from the server times that claims return. Only used to arm
 * timers for wake signals: whether a job is due is always decided inside Redis (invariant 3), so an estimate that runs
 * ahead costs one early claim that finds nothing, never an early delivery.
 */
final class ServerClock {
    private static final long REFRESH_NANOS = 5_000_000_000L;

    private long offsetMs;
    private long bestRoundTripNanos;
    private long sampledAtNanos;
    private boolean calibrated;

    /**
     * Records the server time {@code serverMs} seen by a call sent at {@code sentNanos}, answered at
     * {@code receivedNanos}.
     */
    synchronized void sample(long serverMs, long sentNanos, long receivedNanos) {
        long roundTrip = receivedNanos - sentNanos;
        // Trust short round trips; take a slower one only when the estimate is getting old, so drift cannot build up.
        if (calibrated && roundTrip > 2 * bestRoundTripNanos && receivedNanos - sampledAtNanos < REFRESH_NANOS) {
            return;
        }
        bestRoundTripNanos = calibrated ? Math.min(bestRoundTripNanos, roundTrip) : roundTrip;
        calibrated = true;
        sampledAtNanos = receivedNanos;
        offsetMs = serverMs - (sentNanos + roundTrip / 2) / 1_000_000;
    }

    /** The estimated server time now, epoch ms; this machine's clock until the first sample. */
    synchronized long nowMs() {
        return calibrated ? System.nanoTime() / 1_000_000 + offsetMs : System.currentTimeMillis();
    }
}
