package io.hourglass.bench.systems;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** Records, from handler threads, each delivery's lateness in microseconds, and waits for the expected count. */
public final class LatenessRecorder {
    /** The largest lateness recorded, µs; larger ones are recorded as this. */
    public static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(2);

    private final int expected;
    private final ConcurrentHistogram lateness = new ConcurrentHistogram(HIGHEST_MICROS, 3);
    private final CountDownLatch remaining;
    private final AtomicLong early = new AtomicLong();
    private final AtomicLong lastHandledMicros = new AtomicLong();

    /** @param expected jobs to wait for */
    public LatenessRecorder(int expected) {
        this.expected = expected;
        this.remaining = new CountDownLatch(expected);
    }

    /** @return the wall clock in microseconds since the epoch (same clock as Redis's TIME on this machine) */
    public static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /**
     * Call first thing in a handler.
     *
     * @param dueEpochMillis the job's due time
     */
    public void record(long dueEpochMillis) {
        long now = nowMicros();
        long late = now - dueEpochMillis * 1000;
        if (late < 0) {
            early.incrementAndGet();
        }
        lateness.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, late)));
        lastHandledMicros.accumulateAndGet(now, Math::max);
        remaining.countDown();
    }

    /** @return deliveries recorded so far */
    public long delivered() {
        return expected - remaining.getCount();
    }

    /** @return when the latest handler so far started, in µs since the epoch (0 before the first) */
    public long lastHandledMicros() {
        return lastHandledMicros.get();
    }

    /**
     * @param timeout longest wait
     * @return whether every expected job was handled in time
     * @throws InterruptedException when interrupted
     */
    public boolean await(Duration timeout) throws InterruptedException {
        return remaining.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * @param startMicros when the drain time starts
     * @param note caveats; empty for none
     * @return the figures so far
     */
    public DrainResult result(long startMicros, String note) {
        Histogram copy = lateness.copy();
        long delivered = copy.getTotalCount();
        double seconds = (lastHandledMicros.get() - startMicros) / 1e6;
        return new DrainResult(expected, delivered, early.get(), seconds, copy, note);
    }
}
