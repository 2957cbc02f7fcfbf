package io.hourglass.bench.systems;

import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.Inspector;
import io.hourglass.JobPage;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.WorkerOptions;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.scaleout.WorkerProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Hourglass through its public API: {@code scheduleAsync} producers and a {@code subscribe}d worker. By default it
 * connects to the {@link FreshRedis} each call gets; {@link #onCluster} binds it to a Redis Cluster instead.
 */
public final class HourglassSystem implements QueueSystem, SeparateWorker {
    static final String TOPIC = "bench";
    private static final byte[] PAYLOAD = "x".repeat(30).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int WARM_UP_JOBS = 1000;
    private static final int PRODUCER_IN_FLIGHT = 256;
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);

    private final Function<FreshRedis, Hourglass> connector;
    private final boolean virtualThreads;

    /**
     * Connects to the Redis each call is given.
     *
     * @param virtualThreads whether the worker's handlers run on virtual threads (Java 21 or later)
     * @param idempotencyWindow how long acked ids stay reserved, or null for the builder's default
     */
    public HourglassSystem(boolean virtualThreads, Duration idempotencyWindow) {
        this(
                redis -> Hourglass.builder()
                        .redisUri(redis.uri())
                        .namespace("bench")
                        .idempotencyWindow(
                                idempotencyWindow != null
                                        ? idempotencyWindow
                                        : HourglassBuilder.DEFAULT_IDEMPOTENCY_WINDOW)
                        .build(),
                virtualThreads);
    }

    private HourglassSystem(Function<FreshRedis, Hourglass> connector, boolean virtualThreads) {
        this.connector = connector;
        this.virtualThreads = virtualThreads;
    }

    /**
     * @param seedUris the cluster's nodes
     * @param shards shards per topic
     * @return a system with this one's handler threads that ignores the {@code redis} argument of its calls (pass null)
     *     and uses the cluster
     */
    public HourglassSystem onCluster(List<String> seedUris, int shards) {
        return new HourglassSystem(
                ignored -> Hourglass.builder()
                        .clusterNodes(seedUris.toArray(String[]::new))
                        .shards(shards)
                        .namespace("bench")
                        .build(),
                virtualThreads);
    }

    @Override
    public SystemName name() {
        return SystemName.HOURGLASS;
    }

    private Hourglass connect(FreshRedis redis) {
        return connector.apply(redis);
    }

    private static JobRequest.Builder job() {
        return JobRequest.builder(TOPIC).payload(PAYLOAD);
    }

    private Hourglass subscribed(FreshRedis redis, LatenessRecorder recorder, int consumers) {
        Hourglass hourglass = connect(redis);
        hourglass.subscribe(
                TOPIC,
                job -> recorder.record(job.dueAt().toEpochMilli()),
                WorkerOptions.builder()
                        .concurrency(consumers)
                        .virtualThreads(virtualThreads)
                        .build());
        return hourglass;
    }

    @Override
    public double scheduleSeconds(FreshRedis redis, ScheduleLoad load) throws Exception {
        try (Hourglass hourglass = connect(redis)) {
            JobRequest request = job().delay(Duration.ofHours(1)).build();
            AsyncLoad.run(WARM_UP_JOBS, 1, load.inFlight(), i -> hourglass.scheduleAsync(request));
            long start = System.nanoTime();
            AsyncLoad.run(load.jobs(), load.threads(), load.inFlight(), i -> hourglass.scheduleAsync(request));
            return (System.nanoTime() - start) / 1e9;
        }
    }

    @Override
    public DrainResult burst(FreshRedis redis, int jobs, int consumers, Duration lead) throws Exception {
        LatenessRecorder recorder = new LatenessRecorder(jobs);
        try (Hourglass hourglass = subscribed(redis, recorder, consumers)) {
            Instant due = Instant.ofEpochMilli(System.currentTimeMillis() + lead.toMillis());
            JobRequest request = job().runAt(due).build();
            AsyncLoad.run(jobs, 1, PRODUCER_IN_FLIGHT, i -> hourglass.scheduleAsync(request));
            String note = BurstNotes.overrun(due.toEpochMilli());
            recorder.await(lead.plus(DRAIN_TIMEOUT));
            return recorder.result(due.toEpochMilli() * 1000, note);
        }
    }

    @Override
    public DrainResult sustained(FreshRedis redis, int jobs, Duration delay, int consumers) throws Exception {
        LatenessRecorder recorder = new LatenessRecorder(jobs);
        try (Hourglass hourglass = subscribed(redis, recorder, consumers)) {
            JobRequest request = job().delay(delay).build();
            long start = LatenessRecorder.nowMicros();
            AsyncLoad.run(jobs, 1, PRODUCER_IN_FLIGHT, i -> hourglass.scheduleAsync(request));
            recorder.await(delay.plus(DRAIN_TIMEOUT));
            return recorder.result(start, "");
        }
    }

    @Override
    public DrainResult fixedRate(FreshRedis redis, int perSecond, Duration duration, int consumers, Duration lead)
            throws Exception {
        FixedRatePlan plan = FixedRatePlan.startingNow(perSecond, duration, lead);
        LatenessRecorder recorder = new LatenessRecorder(plan.jobs());
        try (Hourglass hourglass = subscribed(redis, recorder, consumers)) {
            plan.produce(i -> hourglass.scheduleAsync(
                    job().runAt(Instant.ofEpochMilli(plan.dueOf(i))).build()));
            recorder.await(DRAIN_TIMEOUT);
            return recorder.result(plan.firstDueMillis() * 1000, "");
        }
    }

    /** A {@code ScaleOutWorker} JVM with the builder's defaults (one shard, the default idempotency window). */
    @Override
    public WorkerProcess startWorker(FreshRedis redis, int consumers, List<String> jvmOptions) {
        return WorkerProcess.startStandalone(
                redis.uri(), HourglassBuilder.DEFAULT_SHARDS, consumers, "bench", TOPIC, jvmOptions);
    }

    @Override
    public void produceSustained(FreshRedis redis, int jobs, Duration delay) throws Exception {
        try (Hourglass hourglass = connect(redis)) {
            JobRequest request = job().delay(delay).build();
            AsyncLoad.run(jobs, 1, PRODUCER_IN_FLIGHT, i -> hourglass.scheduleAsync(request));
        }
    }

    @Override
    public int producePaced(FreshRedis redis, int perSecond, Duration duration, Duration lead) throws Exception {
        FixedRatePlan plan = FixedRatePlan.startingNow(perSecond, duration, lead);
        try (Hourglass hourglass = connect(redis)) {
            plan.produce(i -> hourglass.scheduleAsync(
                    job().runAt(Instant.ofEpochMilli(plan.dueOf(i))).build()));
        }
        return plan.jobs();
    }

    @Override
    public void fillBacklog(FreshRedis redis, int jobs, int payloadBytes, BacklogIds.Source ids) throws Exception {
        byte[] payload = "x".repeat(payloadBytes).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        long farAhead = System.currentTimeMillis() + Duration.ofDays(1).toMillis();
        try (Hourglass hourglass = connect(redis)) {
            AsyncLoad.run(
                    jobs,
                    2,
                    PRODUCER_IN_FLIGHT,
                    i -> hourglass.scheduleAsync(JobRequest.builder(TOPIC)
                            .id(ids == BacklogIds.Source.GIVEN ? BacklogIds.id(i) : null)
                            .payload(payload)
                            .runAt(Instant.ofEpochMilli(farAhead + i))
                            .build()));
        }
    }

    @Override
    public Map<String, Histogram> backlogOperations(FreshRedis redis, int jobs, int samples) {
        Map<String, Histogram> latencies = new LinkedHashMap<>();
        try (Hourglass hourglass = connect(redis)) {
            Instant later = Instant.now().plus(Duration.ofDays(2));
            // Each operation warmed up on its own (connection, script cache, JIT), on jobs the samples do not use.
            OperationTimer.warmUp(
                    samples, w -> hourglass.get(TOPIC, BacklogIds.id(BacklogIds.warmUpIndex(jobs, samples, w, 0))));
            OperationTimer.warmUp(
                    samples,
                    w -> hourglass.reschedule(
                            TOPIC, BacklogIds.id(BacklogIds.warmUpIndex(jobs, samples, w, 1)), later));
            OperationTimer.warmUp(
                    samples, w -> hourglass.cancel(TOPIC, BacklogIds.id(BacklogIds.warmUpIndex(jobs, samples, w, 2))));
            for (int s = 0; s < samples; s++) {
                String getId = BacklogIds.id(BacklogIds.sampleIndex(jobs, samples, s, 0));
                String rescheduleId = BacklogIds.id(BacklogIds.sampleIndex(jobs, samples, s, 1));
                String cancelId = BacklogIds.id(BacklogIds.sampleIndex(jobs, samples, s, 2));
                OperationTimer.time(latencies, "get", () -> hourglass.get(TOPIC, getId));
                OperationTimer.time(latencies, "reschedule", () -> hourglass.reschedule(TOPIC, rescheduleId, later));
                OperationTimer.time(latencies, "cancel", () -> hourglass.cancel(TOPIC, cancelId));
            }
            // The inspector at this backlog: the topic's overview, and consecutive pages of 100 from the earliest
            // job on (a page finds its start by rank, so its cost does not grow with its depth).
            Inspector inspector = hourglass.inspector();
            for (int w = 0; w < 200; w++) {
                // warm-up, as for get: script cache, JIT
                inspector.jobs(
                        TOPIC,
                        JobState.SCHEDULED,
                        inspector.jobs(TOPIC, JobState.SCHEDULED, null, 100).nextCursor(),
                        100);
                inspector.topic(TOPIC);
            }
            String cursor = null;
            for (int s = 0; s < samples; s++) {
                OperationTimer.time(latencies, "inspector overview", () -> inspector.topic(TOPIC));
                String after = cursor;
                JobPage[] page = new JobPage[1];
                OperationTimer.time(
                        latencies,
                        "inspector page of 100",
                        () -> page[0] = inspector.jobs(TOPIC, JobState.SCHEDULED, after, 100));
                cursor = page[0].nextCursor();
            }
        }
        return latencies;
    }
}
