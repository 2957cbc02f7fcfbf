package io.hourglass.chaos;

import io.hourglass.Hourglass;
import io.hourglass.HourglassException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer of the cold-tier scenario, in the checker's process, on an instance with the cold tier and no feeder of
 * its own. It schedules its jobs at a steady rate, each due at now + a seeded 0 to {@link TierOptions#maxDelayMs()} (so
 * most go to PostgreSQL), with its own id, on a seeded topic, and records {@code A topic id dueMs reportedDueMs
 * acceptedMs tries} once {@code schedule} returned; a failed schedule is retried with
 * {@link io.hourglass.OnConflict#KEEP}. Of the jobs due more than the horizon + 2 s ahead, a seeded
 * {@value #RESCHEDULE_PERCENT}% are rescheduled and {@value #CANCEL_PERCENT}% cancelled, at a seeded time at least 1.2
 * s before they are due: the job may then be in PostgreSQL, in the middle of a move, or in Redis. Half of the
 * reschedules bring the job within the horizon, half take it beyond (across the tiers both ways). Each is retried until
 * it returns and recorded as {@code R topic id newDueMs startMs endMs found tries} or {@code K topic id startMs endMs
 * found tries}, with the start of its first try.
 */
final class TierProducer {
    private static final Logger LOG = LoggerFactory.getLogger(TierProducer.class);
    static final int RESCHEDULE_PERCENT = 10;
    static final int CANCEL_PERCENT = 5;
    private static final int THREADS = 4;

    private final Hourglass hourglass;
    private final RecordLog log;
    private final ChaosOptions options;
    private final long seed;
    private final ScheduledExecutorService operations = Executors.newScheduledThreadPool(16, r -> {
        Thread t = new Thread(r, "cold-tier-operations");
        t.setDaemon(true);
        return t;
    });
    private final Set<Class<?>> reported = ConcurrentHashMap.newKeySet();

    TierProducer(Hourglass hourglass, RecordLog log, ChaosOptions options, long seed) {
        this.hourglass = hourglass;
        this.log = log;
        this.options = options;
        this.seed = seed;
    }

    /**
     * Schedules {@code jobs} over {@code windowMs}, then waits for the reschedules and cancels.
     *
     * @return whether every operation ended in time
     */
    boolean run(long jobs, long windowMs) throws InterruptedException {
        long start = System.currentTimeMillis();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int lane = t;
            Thread thread = new Thread(() -> produce(jobs, windowMs, start, lane), "cold-tier-produce-" + t);
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) {
            thread.join();
        }
        operations.shutdown();
        return operations.awaitTermination(options.tier().maxDelayMs() + 300_000, TimeUnit.MILLISECONDS);
    }

    private void produce(long jobs, long windowMs, long start, int lane) {
        TierOptions tier = options.tier();
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + lane);
        for (long i = lane; i < jobs; i += THREADS) {
            sleepUntil(start + windowMs * i / jobs);
            String id = "j" + i;
            String topic = ClientSettings.topic(random.nextInt(options.topics()));
            long delay = random.nextLong(tier.maxDelayMs() + 1);
            long dueMs = System.currentTimeMillis() + delay;
            ProducerMain.scheduleUntilAccepted(hourglass, log, topic, id, dueMs, this::retryAfter);
            int roll = random.nextInt(100);
            long room = dueMs - System.currentTimeMillis() - 1_200;
            if (delay < tier.horizonMs() + 2_000 || room < 300 || roll >= RESCHEDULE_PERCENT + CANCEL_PERCENT) {
                continue;
            }
            long after = random.nextLong(200, room);
            if (roll < RESCHEDULE_PERCENT) {
                long newDelay = random.nextBoolean()
                        ? random.nextLong(300, tier.horizonMs() - 300)
                        : random.nextLong(tier.horizonMs() + 500, tier.maxDelayMs() + 1_000);
                operations.schedule(logged(() -> reschedule(topic, id, newDelay)), after, TimeUnit.MILLISECONDS);
            } else {
                operations.schedule(logged(() -> cancel(topic, id)), after, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** The executor keeps a task's exception to itself: log it (its job then has no operation in the history). */
    private static Runnable logged(Runnable operation) {
        return () -> {
            try {
                operation.run();
            } catch (RuntimeException e) {
                LOG.error("cold-tier producer: an operation failed for good", e);
            }
        };
    }

    private void reschedule(String topic, String id, long newDelayMs) {
        long start = System.currentTimeMillis();
        long newDueMs = start + newDelayMs;
        int[] tries = {0};
        boolean found = untilItReturns(tries, () -> hourglass
                .reschedule(topic, id, Instant.ofEpochMilli(newDueMs))
                .isPresent());
        log.append("R", topic, id, newDueMs, start, System.currentTimeMillis(), found, tries[0]);
    }

    private void cancel(String topic, String id) {
        long start = System.currentTimeMillis();
        int[] tries = {0};
        boolean found = untilItReturns(tries, () -> hourglass.cancel(topic, id));
        log.append("K", topic, id, start, System.currentTimeMillis(), found, tries[0]);
    }

    private boolean untilItReturns(int[] tries, BooleanSupplier call) {
        while (true) {
            tries[0]++;
            try {
                return call.getAsBoolean();
            } catch (RuntimeException e) {
                retryAfter(e);
            }
        }
    }

    /** Redis or PostgreSQL down or paused: try again; anything else is worth one report per kind. */
    private void retryAfter(RuntimeException e) {
        if (e instanceof IllegalArgumentException) {
            throw e;
        }
        if (!(e instanceof HourglassException) && reported.add(e.getClass())) {
            LOG.warn("cold-tier producer: not an HourglassException, retried all the same", e);
        }
        sleepUntil(System.currentTimeMillis() + 50);
    }

    private static void sleepUntil(long wallMs) {
        long wait = wallMs - System.currentTimeMillis();
        if (wait > 0) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
