package io.hourglass.bench.workloads;

import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.JobHandler;
import io.hourglass.JobRequest;
import io.hourglass.NonRetryableException;
import io.hourglass.TopicOverview;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.FreshRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * 8. Completed jobs kept and bounded dead letters, Hourglass only (30-byte payloads, one shard): Redis memory per acked
 * job with the idempotency window alone and with a retention of completed jobs (with a 30-byte result); a run whose
 * every job dies, with and without dead-letter limits (dead letters kept, trimmed, memory, drain rate); and a flow of
 * jobs scheduled and drained at once with a short retention, whose retained entries and Redis memory must stay bounded
 * by the rate times the retention, however many jobs pass.
 */
public final class RetentionWorkload implements Workload {
    private static final int PAYLOAD_BYTES = 30;
    private static final String TOPIC = "retained";
    private static final Duration FLOW_RETENTION = Duration.ofSeconds(2);

    @Override
    public String key() {
        return "retention";
    }

    @Override
    public String title() {
        return "8. Completed jobs and dead letters";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        Sizes sizes = context.sizes();
        int jobs = sizes.sustainedJobs();
        for (int round = 1; round <= context.rounds(); round++) {
            ScenarioScope memory = context.scope(
                    title(), String.format("memory per acked job, %,d jobs", jobs), SystemName.HOURGLASS, round);
            double windowOnly = perAckedJob(b -> b, jobs, false);
            double retained = perAckedJob(b -> b.completedRetention(Duration.ofHours(1)), jobs, true);
            memory.add("Redis memory per acked job, window (1 h) only", "bytes", Direction.LOWER_IS_BETTER, windowOnly);
            memory.add(
                    "Redis memory per acked job, window and retention (1 h), 30-byte result",
                    "bytes",
                    Direction.LOWER_IS_BETTER,
                    retained);
            memory.add("retention's own cost per job", "bytes", Direction.LOWER_IS_BETTER, retained - windowOnly);

            int limit = Math.max(1, jobs / 10);
            ScenarioScope dead = context.scope(
                    title(),
                    String.format("%,d jobs dead at once, limit %,d dead letters", jobs, limit),
                    SystemName.HOURGLASS,
                    round);
            deadLetters(dead, jobs, limit, "limited");
            deadLetters(dead, jobs, 0, "unlimited");

            int flowJobs = sizes.backlogs().get(0);
            ScenarioScope flow = context.scope(
                    title(),
                    String.format("flow of %,d jobs, retention %d s, window off", flowJobs, FLOW_RETENTION.toSeconds()),
                    SystemName.HOURGLASS,
                    round);
            flow(context, flow, flowJobs);
        }
    }

    private static Hourglass connect(FreshRedis redis, UnaryOperator<HourglassBuilder> settings) {
        return settings.apply(Hourglass.builder().redisUri(redis.uri()).namespace("bench"))
                .build();
    }

    private static byte[] payload() {
        return "x".repeat(PAYLOAD_BYTES).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Schedules {@code n} jobs due now, at most 512 in flight. */
    private static void schedule(Hourglass hourglass, String prefix, int n, int maxAttempts) {
        byte[] payload = payload();
        List<CompletableFuture<?>> inFlight = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            inFlight.add(hourglass.scheduleAsync(JobRequest.builder(TOPIC)
                    .id(prefix + i)
                    .payload(payload)
                    .maxAttempts(maxAttempts)
                    .build()));
            if (inFlight.size() == 512) {
                CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new))
                        .join();
                inFlight.clear();
            }
        }
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
    }

    /** Waits until the topic has no job waiting or running, i.e. every ack or nack landed. */
    private static void awaitDrained(Hourglass hourglass, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            TopicOverview o = hourglass.inspector().topic(TOPIC);
            if (o.scheduled() + o.ready() + o.active() == 0) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the topic did not drain in " + timeoutMs + " ms");
    }

    /** Redis memory per job after {@code jobs} jobs were scheduled, run and acked, beyond the memory before. */
    private static double perAckedJob(UnaryOperator<HourglassBuilder> settings, int jobs, boolean withResult)
            throws Exception {
        byte[] result = payload();
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass = connect(redis, settings)) {
            hourglass.schedule(
                    JobRequest.builder(TOPIC).id("warm-up").payload("w").build());
            long before = redis.usedMemory();
            schedule(hourglass, "job-", jobs, 10);
            JobHandler handler = withResult ? JobHandler.returning(job -> result) : job -> {};
            try (Worker worker = hourglass.subscribe(
                    TOPIC,
                    handler,
                    WorkerOptions.builder().concurrency(Sizes.CONSUMERS).build())) {
                awaitDrained(hourglass, 600_000);
            }
            return (double) (redis.usedMemory() - before) / jobs;
        }
    }

    private static void deadLetters(ScenarioScope scope, int jobs, int limit, String label) throws Exception {
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass = connect(
                        redis, b -> b.deadLetterLimits(limit, Duration.ZERO).idempotencyWindow(Duration.ZERO))) {
            hourglass.schedule(
                    JobRequest.builder(TOPIC).id("warm-up").payload("w").build());
            long before = redis.usedMemory();
            schedule(hourglass, "dead-", jobs, 1);
            long start = System.nanoTime();
            try (Worker worker = hourglass.subscribe(
                    TOPIC,
                    job -> {
                        if (!job.id().equals("warm-up")) {
                            throw new NonRetryableException("dies");
                        }
                    },
                    WorkerOptions.builder()
                            .concurrency(Sizes.CONSUMERS)
                            .failureLogLevel(System.Logger.Level.OFF)
                            .build())) {
                awaitDrained(hourglass, 600_000);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            TopicOverview o = hourglass.inspector().topic(TOPIC);
            scope.add("dead letters kept, " + label, "jobs", Direction.INFO, o.dead());
            scope.add("dead letters trimmed, " + label, "jobs", Direction.INFO, o.deadLettersTrimmed());
            scope.add(
                    "Redis memory after, " + label,
                    "MB",
                    Direction.LOWER_IS_BETTER,
                    (redis.usedMemory() - before) / 1e6);
            scope.add("drain rate, " + label, "jobs/s", Direction.HIGHER_IS_BETTER, jobs / seconds);
        }
    }

    /**
     * Schedules and drains {@code jobs} jobs at once (a producer thread ahead of one worker) with a short retention and
     * the window off, sampling the retained entries and Redis memory every 100 ms.
     */
    private static void flow(BenchContext context, ScenarioScope scope, int jobs) throws Exception {
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass =
                        connect(redis, b -> b.idempotencyWindow(Duration.ZERO).completedRetention(FLOW_RETENTION));
                RedisClient plain = RedisClient.create(redis.uri());
                StatefulRedisConnection<String, String> c = plain.connect()) {
            hourglass.schedule(
                    JobRequest.builder(TOPIC).id("warm-up").payload("w").build());
            long before = redis.usedMemory();
            String ended = io.hourglass.StorageFormat.shardKeyPrefix("bench", TOPIC, 0) + "ended";
            AtomicLong peakEntries = new AtomicLong();
            AtomicLong peakMemory = new AtomicLong();
            AtomicBoolean done = new AtomicBoolean();
            Thread sampler = new Thread(() -> {
                while (!done.get()) {
                    peakEntries.accumulateAndGet(c.sync().hlen(ended), Math::max);
                    peakMemory.accumulateAndGet(redis.usedMemory() - before, Math::max);
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.start();
            long start = System.nanoTime();
            try (Worker worker = hourglass.subscribe(
                    TOPIC,
                    job -> {},
                    WorkerOptions.builder().concurrency(Sizes.CONSUMERS).build())) {
                schedule(hourglass, "flow-", jobs, 10);
                awaitDrained(hourglass, 1_800_000);
                double seconds = (System.nanoTime() - start) / 1e9;
                done.set(true);
                sampler.join();
                report(context, scope, jobs, seconds, peakEntries.get(), peakMemory.get());
                // The flow stopped; the idle worker's sweeps delete what expires from now on.
                Thread.sleep(FLOW_RETENTION.toMillis() + 3_000);
                scope.add(
                        "retained entries, retention + 3 s after the flow",
                        "entries",
                        Direction.LOWER_IS_BETTER,
                        c.sync().hlen(ended));
                scope.add(
                        "Redis memory above start, retention + 3 s after the flow",
                        "MB",
                        Direction.LOWER_IS_BETTER,
                        (redis.usedMemory() - before) / 1e6);
            }
        }
    }

    private static void report(
            BenchContext context, ScenarioScope scope, int jobs, double seconds, long peakEntries, long peakMemory) {
        double rate = jobs / seconds;
        context.log(String.format(
                "flow of %,d jobs in %.0f s: peak %,d retained entries, peak %.1f MB",
                jobs, seconds, peakEntries, peakMemory / 1e6));
        scope.add("jobs through", "jobs", Direction.INFO, jobs);
        scope.add("rate", "jobs/s", Direction.HIGHER_IS_BETTER, rate);
        scope.add("peak retained entries", "entries", Direction.LOWER_IS_BETTER, peakEntries);
        scope.add(
                "mean rate × retention (the bound at a steady rate)",
                "entries",
                Direction.INFO,
                rate * FLOW_RETENTION.toMillis() / 1000.0);
        scope.add("peak Redis memory above start", "MB", Direction.LOWER_IS_BETTER, peakMemory / 1e6);
    }
}
