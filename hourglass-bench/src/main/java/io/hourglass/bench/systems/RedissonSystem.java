package io.hourglass.bench.systems;

import io.hourglass.bench.SystemName;
import io.hourglass.bench.redis.FreshRedis;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Redisson's {@code RDelayedQueue} (deprecated since 3.46, still the open-source delay queue): producers call
 * {@code offerAsync(payload, delay)}, consumers block on the destination {@code RBlockingQueue}. Payloads are strings
 * {@code dueMillis|index|padding}, so a consumer knows each job's due time.
 */
@SuppressWarnings("deprecation")
public final class RedissonSystem implements QueueSystem {
    private static final String QUEUE = "bench";
    private static final String PADDING = "x".repeat(16);
    private static final int WARM_UP_JOBS = 1000;
    private static final int PRODUCER_IN_FLIGHT = 256;
    /** remove and contains scan the whole queue (O(N)), so fewer samples are taken. */
    private static final int MAX_SCAN_SAMPLES = 30;

    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);

    private final boolean virtualThreads;

    /** @param virtualThreads whether the consumers block on virtual threads (Java 21 or later) */
    public RedissonSystem(boolean virtualThreads) {
        this.virtualThreads = virtualThreads;
    }

    @Override
    public SystemName name() {
        return SystemName.REDISSON;
    }

    /** One Redisson client with its delayed queue; closing destroys the queue's transfer task and the client. */
    private static final class Connected implements AutoCloseable {
        final RedissonClient client;
        final RBlockingQueue<String> queue;
        final RDelayedQueue<String> delayed;

        Connected(FreshRedis redis) {
            Config config = new Config();
            config.setCodec(StringCodec.INSTANCE);
            config.useSingleServer()
                    .setAddress(redis.uri())
                    .setConnectionPoolSize(64)
                    .setConnectionMinimumIdleSize(24);
            client = Redisson.create(config);
            queue = client.getBlockingQueue(QUEUE);
            delayed = client.getDelayedQueue(queue);
        }

        java.util.concurrent.CompletionStage<Void> offer(long dueMillis, int index) {
            long delay = Math.max(0, dueMillis - System.currentTimeMillis());
            return delayed.offerAsync(dueMillis + "|" + index + "|" + PADDING, delay, TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            delayed.destroy();
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    @Override
    public double scheduleSeconds(FreshRedis redis, ScheduleLoad load) throws Exception {
        try (Connected c = new Connected(redis)) {
            long due = System.currentTimeMillis() + Duration.ofHours(1).toMillis();
            AsyncLoad.run(WARM_UP_JOBS, 1, load.inFlight(), i -> c.offer(due, i));
            long start = System.nanoTime();
            AsyncLoad.run(load.jobs(), load.threads(), load.inFlight(), i -> c.offer(due, i));
            return (System.nanoTime() - start) / 1e9;
        }
    }

    @Override
    public DrainResult burst(FreshRedis redis, int jobs, int consumers, Duration lead) throws Exception {
        LatenessRecorder recorder = new LatenessRecorder(jobs);
        try (Connected c = new Connected(redis);
                BlockingConsumers ignored = consume(c, recorder, consumers)) {
            long due = System.currentTimeMillis() + lead.toMillis();
            AsyncLoad.run(jobs, 1, PRODUCER_IN_FLIGHT, i -> c.offer(due, i));
            String note = BurstNotes.overrun(due);
            recorder.await(lead.plus(DRAIN_TIMEOUT));
            return recorder.result(due * 1000, note);
        }
    }

    @Override
    public DrainResult sustained(FreshRedis redis, int jobs, Duration delay, int consumers) throws Exception {
        LatenessRecorder recorder = new LatenessRecorder(jobs);
        try (Connected c = new Connected(redis);
                BlockingConsumers ignored = consume(c, recorder, consumers)) {
            long start = LatenessRecorder.nowMicros();
            AsyncLoad.run(jobs, 1, PRODUCER_IN_FLIGHT, i -> c.offer(System.currentTimeMillis() + delay.toMillis(), i));
            recorder.await(delay.plus(DRAIN_TIMEOUT));
            return recorder.result(start, "");
        }
    }

    @Override
    public DrainResult fixedRate(FreshRedis redis, int perSecond, Duration duration, int consumers, Duration lead)
            throws Exception {
        FixedRatePlan plan = FixedRatePlan.startingNow(perSecond, duration, lead);
        LatenessRecorder recorder = new LatenessRecorder(plan.jobs());
        try (Connected c = new Connected(redis);
                BlockingConsumers ignored = consume(c, recorder, consumers)) {
            plan.produce(i -> c.offer(plan.dueOf(i), i));
            recorder.await(DRAIN_TIMEOUT);
            return recorder.result(plan.firstDueMillis() * 1000, "");
        }
    }

    private BlockingConsumers consume(Connected c, LatenessRecorder recorder, int consumers) {
        return new BlockingConsumers(
                consumers,
                virtualThreads,
                () -> c.queue.poll(1, TimeUnit.SECONDS),
                payload -> recorder.record(Long.parseLong(payload.substring(0, payload.indexOf('|')))));
    }

    private static String backlogValue(int index, String payload) {
        return BacklogIds.id(index) + payload;
    }

    @Override
    public void fillBacklog(FreshRedis redis, int jobs, int payloadBytes, BacklogIds.Source ids) throws Exception {
        String payload = "x".repeat(payloadBytes);
        // Redisson has no ids: a given one goes into the value, and its queue tells equal values apart by a random
        // id it adds to each (its own).
        try (Connected c = new Connected(redis)) {
            AsyncLoad.run(
                    jobs,
                    2,
                    PRODUCER_IN_FLIGHT,
                    i -> c.delayed.offerAsync(
                            ids == BacklogIds.Source.GIVEN ? backlogValue(i, payload) : payload,
                            Duration.ofDays(1).toMillis() + i,
                            TimeUnit.MILLISECONDS));
        }
    }

    /** get = {@code contains(value)}, cancel = {@code remove(value)}; Redisson has no reschedule. */
    @Override
    public Map<String, Histogram> backlogOperations(FreshRedis redis, int jobs, int samples) {
        int scans = Math.min(samples, MAX_SCAN_SAMPLES);
        String payload = "x".repeat(30);
        Map<String, Histogram> latencies = new LinkedHashMap<>();
        try (Connected c = new Connected(redis)) {
            // Warmed up as Hourglass is; a call scans the whole queue, so only a few fit in the warm-up's time.
            OperationTimer.warmUp(
                    scans, w -> c.delayed.contains(backlogValue(BacklogIds.warmUpIndex(jobs, scans, w, 0), payload)));
            OperationTimer.warmUp(
                    scans, w -> c.delayed.remove(backlogValue(BacklogIds.warmUpIndex(jobs, scans, w, 2), payload)));
            for (int s = 0; s < scans; s++) {
                String getValue = backlogValue(BacklogIds.sampleIndex(jobs, scans, s, 0), payload);
                String cancelValue = backlogValue(BacklogIds.sampleIndex(jobs, scans, s, 2), payload);
                OperationTimer.time(latencies, "get", () -> c.delayed.contains(getValue));
                OperationTimer.time(latencies, "cancel", () -> c.delayed.remove(cancelValue));
            }
        }
        return latencies;
    }
}
