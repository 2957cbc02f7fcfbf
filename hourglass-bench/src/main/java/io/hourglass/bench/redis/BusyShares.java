package io.hourglass.bench.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis's and the machine's CPU use over the time a step kept Redis busy, from readings taken every
 * {@link #INTERVAL_MILLIS} ms while it runs. A share over a whole step counts the waits in which nothing ran as idle:
 * the sustained run's jobs come due a second after they are scheduled, so a system that schedules them in less than
 * that second idles until the first is due, and its shares over the step read low though it may be bound while it
 * works. An interval counts as busy when Redis used at least {@link #BUSY_PERCENT}% of a core in it (an idle Redis uses
 * well under 1%). Started and stopped by one thread; readings are taken by a thread of their own.
 */
public final class BusyShares implements AutoCloseable {
    /** Time between readings, ms: five jiffies of {@code /proc/stat} at Linux's usual 100 per second. */
    public static final long INTERVAL_MILLIS = 50;
    /** Redis's share of a core, %, from which an interval counts as busy. */
    static final double BUSY_PERCENT = 10;

    private record Reading(long nanos, long redisMicros, MachineCpu machine) {}

    private final ServerCpu redis;
    private final List<Reading> readings = new ArrayList<>();
    private final Thread reader;
    private volatile boolean stopped;

    private BusyShares(String uri) {
        this.redis = ServerCpu.of(List.of(uri));
        read();
        this.reader = new Thread(this::readUntilStopped, "busy-shares");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * @param uri {@code redis://host:port} of the one Redis the step uses
     * @return readings that start now
     */
    public static BusyShares start(String uri) {
        return new BusyShares(uri);
    }

    private void readUntilStopped() {
        while (!stopped) {
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (!stopped) {
                read();
            }
        }
    }

    private void read() {
        readings.add(new Reading(System.nanoTime(), redis.micros()[0], MachineCpu.read()));
    }

    /**
     * Stops the readings, takes a last one, and sums the busy intervals. Call once.
     *
     * @param split how long after the start Redis's CPU time is split (the first job's due time), to the precision of
     *     one interval: an interval that ends by then counts before it
     * @return the shares over the busy intervals
     */
    public Shares stop(Duration split) {
        joinReader();
        read();
        redis.close();
        long splitNanos = readings.get(0).nanos() + split.toNanos();
        long redisMicrosBeforeSplit = 0;
        long busyNanos = 0;
        long redisMicros = 0;
        long machineBusy = 0;
        long machineTotal = 0;
        boolean machineKnown = true;
        for (int i = 1; i < readings.size(); i++) {
            Reading from = readings.get(i - 1);
            Reading to = readings.get(i);
            long nanos = to.nanos() - from.nanos();
            long micros = to.redisMicros() - from.redisMicros();
            if (to.nanos() <= splitNanos) {
                redisMicrosBeforeSplit += micros;
            }
            if (nanos <= 0 || 100.0 * micros * 1000 / nanos < BUSY_PERCENT) {
                continue;
            }
            busyNanos += nanos;
            redisMicros += micros;
            machineKnown &= to.machine().total() >= 0 && from.machine().total() >= 0;
            machineBusy += to.machine().busy() - from.machine().busy();
            machineTotal += to.machine().total() - from.machine().total();
        }
        Reading first = readings.get(0);
        Reading last = readings.get(readings.size() - 1);
        long allNanos = last.nanos() - first.nanos();
        long allMicros = last.redisMicros() - first.redisMicros();
        double redisPercent = busyNanos > 0 ? 100.0 * redisMicros * 1000 / busyNanos : Double.NaN;
        double machinePercent = machineKnown && machineTotal > 0 ? 100.0 * machineBusy / machineTotal : Double.NaN;
        return new Shares(
                redisPercent,
                machinePercent,
                busyNanos / 1e9,
                (allNanos - busyNanos) / 1e9,
                redisMicrosBeforeSplit,
                allMicros - redisMicrosBeforeSplit);
    }

    /** Stops the readings without summing them; a no-op after {@link #stop(Duration)}. */
    @Override
    public void close() {
        if (!stopped) {
            joinReader();
            redis.close();
        }
    }

    /** Stops the reader, within one interval; its readings happen before this returns (join). */
    private void joinReader() {
        stopped = true;
        try {
            reader.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @param redisPercent Redis's CPU over the busy intervals, % of one core; NaN when no interval was busy
     * @param machinePercent every core's CPU over the busy intervals, % of all cores; NaN where unknown
     * @param busySeconds the busy intervals' length
     * @param idleSeconds the rest of the readings' time: intervals in which Redis used under {@link #BUSY_PERCENT}%
     * @param redisMicrosBeforeSplit Redis's CPU time before the split, µs
     * @param redisMicrosAfterSplit Redis's CPU time from the split on, µs
     */
    public record Shares(
            double redisPercent,
            double machinePercent,
            double busySeconds,
            double idleSeconds,
            long redisMicrosBeforeSplit,
            long redisMicrosAfterSplit) {}
}
