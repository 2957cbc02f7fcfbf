package io.hourglass.chaos;

import io.hourglass.Hourglass;
import io.hourglass.HourglassException;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A producer process of the checker: once connected it prints {@value #READY} and waits for the checker's
 * {@value ParentWatch#GO}; then it schedules its share of the jobs at a steady rate, each at an absolute due instant
 * (now + a seeded random delay) on a seeded random topic, and records a job as accepted, with {@code A topic id dueMs
 * reportedDueMs acceptedWallMs tries}, only after {@code schedule} returned. A schedule that fails (Redis killed,
 * paused or failing over) is retried with the same id, due instant and {@link OnConflict#KEEP} until it succeeds, so
 * every job ends accepted exactly once in the history.
 */
@Command(name = "producer", mixinStandardHelpOptions = true)
public final class ProducerMain implements Callable<Integer> {
    /** Printed on standard output once connected, when it starts scheduling. */
    static final String READY = "producer ready";

    @Mixin
    ClientSettings client;

    @Option(names = "--topics", defaultValue = "4")
    int topics;

    @Option(names = "--first-job", defaultValue = "0", description = "index of this producer's first job")
    int firstJob;

    @Option(names = "--jobs", required = true, description = "jobs this producer schedules")
    int jobs;

    @Option(names = "--duration-ms", required = true, description = "spread the jobs evenly over this time")
    long durationMs;

    @Option(names = "--max-delay-ms", defaultValue = "5000")
    long maxDelayMs;

    @Option(names = "--threads", defaultValue = "4")
    int threads;

    @Option(names = "--seed", defaultValue = "1")
    long seed;

    @Option(names = "--out", required = true)
    Path out;

    /** @param args see the options */
    public static void main(String[] args) {
        ParentWatch.haltWhenParentExits();
        System.exit(new CommandLine(new ProducerMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try (RecordLog log = new RecordLog(out);
                Hourglass hourglass = client.connect()) {
            System.out.println(READY);
            System.out.flush();
            ParentWatch.awaitGo();
            long start = System.currentTimeMillis();
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int lane = t;
                Thread thread = new Thread(() -> produce(hourglass, log, start, lane), "produce-" + t);
                thread.start();
                running.add(thread);
            }
            for (Thread thread : running) {
                thread.join();
            }
        }
        return 0;
    }

    private void produce(Hourglass hourglass, RecordLog log, long start, int lane) {
        SplittableRandom random = new SplittableRandom(seed * 1_000_003L + firstJob + lane);
        for (int i = lane; i < jobs; i += threads) {
            long sendAt = start + durationMs * i / jobs;
            sleepUntil(sendAt);
            String id = "j" + (firstJob + i);
            String topic = ClientSettings.topic(random.nextInt(topics));
            long dueMs = System.currentTimeMillis() + random.nextLong(maxDelayMs + 1);
            scheduleUntilAccepted(hourglass, log, topic, id, dueMs);
        }
    }

    private void scheduleUntilAccepted(Hourglass hourglass, RecordLog log, String topic, String id, long dueMs) {
        scheduleUntilAccepted(hourglass, log, topic, id, dueMs, e -> {
            if (!(e instanceof HourglassException)) {
                // not an HourglassException: a core defect worth seeing, but the job must still be accepted
                reportUnexpected(e);
            }
            sleepUntil(System.currentTimeMillis() + 50);
        });
    }

    /**
     * Schedules the job with its id and due instant, then with {@link OnConflict#KEEP} after each failure that
     * {@code retry} let pass (it sleeps, or throws to give up), and records {@code A topic id dueMs reportedDueMs
     * acceptedWallMs tries} once a call returned.
     *
     * @throws IllegalStateException when the first call finds the id taken: ids are unique per run
     * @throws IllegalArgumentException when the request is bad
     */
    static void scheduleUntilAccepted(
            Hourglass hourglass, RecordLog log, String topic, String id, long dueMs, Consumer<RuntimeException> retry) {
        for (int tries = 1; ; tries++) {
            JobRequest request = JobRequest.builder(topic)
                    .id(id)
                    .payload(id)
                    .runAt(Instant.ofEpochMilli(dueMs))
                    .onConflict(tries == 1 ? OnConflict.REJECT : OnConflict.KEEP)
                    .build();
            try {
                ScheduleResult result = hourglass.schedule(request);
                // A retry can find the job already run and acked (its id reserved): it was accepted, at the due
                // instant asked for, and the reply has no due time of its own.
                long reportedDueMs = result.dueAt() != null ? result.dueAt().toEpochMilli() : dueMs;
                log.append("A", topic, id, dueMs, reportedDueMs, System.currentTimeMillis(), tries);
                return;
            } catch (JobAlreadyExistsException e) {
                throw new IllegalStateException("job ids are unique per run, yet " + id + " exists already", e);
            } catch (IllegalArgumentException e) {
                throw e;
            } catch (RuntimeException e) {
                retry.accept(e);
            }
        }
    }

    private final java.util.Set<Class<?>> reported = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private void reportUnexpected(RuntimeException e) {
        if (reported.add(e.getClass())) {
            System.err.println("schedule threw " + e.getClass().getName() + ", not an HourglassException:");
            e.printStackTrace();
        }
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
