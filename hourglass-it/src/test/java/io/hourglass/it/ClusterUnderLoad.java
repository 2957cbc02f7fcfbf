package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.WorkerOptions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A topic under load while a test changes the Redis Cluster beneath it: a producer schedules 400 jobs over about 2 s,
 * each due within 2.5 s, retrying each refused call with the same id and {@link OnConflict#KEEP}, and a worker takes
 * them. Whatever the change, every job must then be delivered, none before its due time, and no delivery left
 * unfinished.
 */
final class ClusterUnderLoad {
    private static final int JOBS = 400;
    /** Spreads the schedules over about 2 s, so that they go on while the cluster changes. */
    private static final long PRODUCER_PAUSE_MS = 5;

    private static final Duration RETRY_FOR = Duration.ofSeconds(30);

    private ClusterUnderLoad() {}

    /** Runs {@code change} on this thread while the producer runs on another, then checks every delivery. */
    static void loseNothingThrough(Hourglass hourglass, String topic, Runnable change) {
        Map<String, Long> firstDelivery = new ConcurrentHashMap<>();
        Map<String, Long> due = new ConcurrentHashMap<>();
        hourglass.subscribe(
                topic,
                job -> firstDelivery.putIfAbsent(job.id(), System.currentTimeMillis()),
                WorkerOptions.builder().concurrency(8).build());

        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < JOBS; i++) {
                String id = "m" + i;
                ScheduleResult r = scheduleRetrying(
                        hourglass,
                        JobRequest.builder(topic)
                                .id(id)
                                .delay(Duration.ofMillis(
                                        ThreadLocalRandom.current().nextLong(0, 2500)))
                                .onConflict(OnConflict.KEEP)
                                .build());
                due.put(id, r.dueAt().toEpochMilli());
                Pause.millis(PRODUCER_PAUSE_MS);
            }
        });
        change.run();
        producer.join();

        await().atMost(Duration.ofSeconds(20)).until(() -> firstDelivery.size() == JOBS);
        for (Map.Entry<String, Long> e : firstDelivery.entrySet()) {
            assertThat(e.getValue()).as("first delivery of %s", e.getKey()).isGreaterThanOrEqualTo(due.get(e.getKey()));
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> hourglass.stats(topic).active() == 0);
    }

    /**
     * A producer's retry through a cluster change: the same request again every 20 ms for up to 30 s while Redis cannot
     * take it. With a fixed id and {@link OnConflict#KEEP}, a retry of a schedule that did land is harmless.
     */
    static ScheduleResult scheduleRetrying(Hourglass hourglass, JobRequest request) {
        long deadline = System.nanoTime() + RETRY_FOR.toNanos();
        while (true) {
            try {
                return hourglass.schedule(request);
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Pause.millis(20);
            }
        }
    }
}
