package io.hourglass.bench.systems;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.scaleout.WorkerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * BullMQ delayed jobs consumed by a {@code Worker}, run by {@code bullmq/bench.mjs} in Node.js; this class passes the
 * workload's parameters and turns the printed JSON into the same figures as the Java systems.
 */
public final class BullmqSystem implements QueueSystem, SeparateWorker {
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(2);

    private final NodeRunner node;

    /** @param node runs bench.mjs */
    public BullmqSystem(NodeRunner node) {
        this.node = node;
    }

    @Override
    public SystemName name() {
        return SystemName.BULLMQ;
    }

    private JsonNode run(String workload, FreshRedis redis, Object... options) throws Exception {
        List<String> args = new ArrayList<>(List.of(workload, "--port", String.valueOf(redis.port())));
        for (Object option : options) {
            args.add(String.valueOf(option));
        }
        return node.run(args, TIMEOUT);
    }

    @Override
    public double scheduleSeconds(FreshRedis redis, ScheduleLoad load) throws Exception {
        JsonNode r = run(
                "schedule", redis, "--jobs", load.jobs(), "--inflight", load.inFlight(), "--producers", load.threads());
        return r.get("seconds").asDouble();
    }

    @Override
    public DrainResult burst(FreshRedis redis, int jobs, int consumers, Duration lead) throws Exception {
        JsonNode r = run("burst", redis, "--jobs", jobs, "--consumers", consumers, "--lead-ms", lead.toMillis());
        long overrun = r.get("scheduleOverrunMs").asLong();
        return drain(r, overrun > 0 ? "scheduling ended " + overrun + " ms after the due time" : "");
    }

    @Override
    public DrainResult sustained(FreshRedis redis, int jobs, Duration delay, int consumers) throws Exception {
        return drain(
                run(
                        "sustained",
                        redis,
                        "--jobs",
                        jobs,
                        "--consumers",
                        consumers,
                        "--delay-ms",
                        delay.toMillis(),
                        "--inflight",
                        256),
                "");
    }

    @Override
    public DrainResult fixedRate(FreshRedis redis, int perSecond, Duration duration, int consumers, Duration lead)
            throws Exception {
        return drain(
                run(
                        "fixed-rate",
                        redis,
                        "--rate",
                        perSecond,
                        "--seconds",
                        duration.toSeconds(),
                        "--consumers",
                        consumers,
                        "--lead-ms",
                        lead.toMillis()),
                "");
    }

    /** {@code node bench.mjs worker}: a BullMQ {@code Worker} alone in a Node.js process. */
    @Override
    public WorkerProcess startWorker(FreshRedis redis, int consumers, List<String> jvmOptions) {
        return WorkerProcess.start(
                List.of(
                        "node",
                        "bench.mjs",
                        "worker",
                        "--port",
                        String.valueOf(redis.port()),
                        "--consumers",
                        String.valueOf(consumers)),
                node.folder().toFile());
    }

    @Override
    public void produceSustained(FreshRedis redis, int jobs, Duration delay) throws Exception {
        run("produce-sustained", redis, "--jobs", jobs, "--delay-ms", delay.toMillis(), "--inflight", 256);
    }

    @Override
    public int producePaced(FreshRedis redis, int perSecond, Duration duration, Duration lead) throws Exception {
        return run(
                        "produce-paced",
                        redis,
                        "--rate",
                        perSecond,
                        "--seconds",
                        duration.toSeconds(),
                        "--lead-ms",
                        lead.toMillis())
                .get("jobs")
                .asInt();
    }

    @Override
    public void fillBacklog(FreshRedis redis, int jobs, int payloadBytes, BacklogIds.Source ids) throws Exception {
        // BullMQ keeps the data as JSON: a string payload gains two quotes, counted as overhead.
        run(
                "backlog-fill",
                redis,
                "--jobs",
                jobs,
                "--payload-bytes",
                payloadBytes,
                "--generated-ids",
                ids == BacklogIds.Source.THE_SYSTEMS_OWN ? 1 : 0);
    }

    /** get = {@code queue.getJob}, reschedule = {@code job.changeDelay}, cancel = {@code queue.remove}. */
    @Override
    public Map<String, Histogram> backlogOperations(FreshRedis redis, int jobs, int samples) throws Exception {
        JsonNode r = run("backlog-ops", redis, "--jobs", jobs, "--samples", samples);
        Map<String, Histogram> latencies = new LinkedHashMap<>();
        latencies.put("get", histogram(r.get("getUs")));
        latencies.put("reschedule", histogram(r.get("rescheduleUs")));
        latencies.put("cancel", histogram(r.get("cancelUs")));
        return latencies;
    }

    private static DrainResult drain(JsonNode r, String note) {
        return new DrainResult(
                r.get("jobs").asInt(),
                r.get("delivered").asLong(),
                r.get("early").asLong(),
                r.get("seconds").asDouble(),
                histogram(r.get("latenessUs")),
                note);
    }

    private static Histogram histogram(JsonNode values) {
        Histogram h = new Histogram(HIGHEST_MICROS, 3);
        values.forEach(v -> h.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, v.asLong()))));
        return h;
    }
}
