package io.hourglass.tier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hourglass.Backoff;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobEvents;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.TopicStats;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Both tiers behind one API, and the feeder between them, on a real PostgreSQL and Redis (topics of 4 shards). */
@RedisTest(shards = 4)
@PostgresTest
class ColdTierIntegrationTests {
    private static final String TOPIC = "renewals";

    /** Pooled, as in production: a new PostgreSQL connection per call would cost more than the call. */
    private static HikariDataSource dataSource;

    @BeforeAll
    static void connect(PostgresProcess postgres) {
        dataSource = pool(postgres);
    }

    /** @return a pool of at most 8 connections to the test's PostgreSQL; the caller closes it */
    static HikariDataSource pool(PostgresProcess postgres) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.jdbcUrl());
        config.setUsername(postgres.user());
        config.setMaximumPoolSize(8);
        return new HikariDataSource(config);
    }

    @AfterAll
    static void disconnect() {
        dataSource.close();
    }

    /** A tier whose table exists already ({@link #emptyTheColdTier}), with a short poll and lead time. */
    static JdbcColdTier.Builder tier(HourglassFactory factory, DataSource dataSource) {
        return JdbcColdTier.builder()
                .namespace(factory.namespace())
                .dataSource(dataSource)
                .migrate(false)
                .pollInterval(Duration.ofMillis(50))
                .leadTime(Duration.ofMillis(500));
    }

    /** Makes the table (once: Flyway takes a while) and empties it. */
    static void emptyTheColdTier(HourglassFactory factory, DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            if (!c.getMetaData().getTables(null, null, JdbcColdTier.TABLE, null).next()) {
                tier(factory, dataSource).build().migrate();
            }
            s.execute("TRUNCATE " + JdbcColdTier.TABLE);
        }
    }

    @BeforeEach
    void emptyTheColdTier(HourglassFactory factory) throws SQLException {
        emptyTheColdTier(factory, dataSource);
    }

    static long rows(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM " + JdbcColdTier.TABLE)) {
            r.next();
            return r.getLong(1);
        }
    }

    private long rows() throws SQLException {
        return rows(dataSource);
    }

    @Test
    void withAShortHorizonFarJobsWaitInPostgresAndEveryJobIsDeliveredOnceAndNeverEarly(HourglassFactory factory)
            throws Exception {
        // No lead time: a job is moved 1 s before it is due, so none is moved while the test still schedules.
        JdbcColdTier tier = tier(factory, dataSource).leadTime(Duration.ZERO).build();
        List<String> scheduled = new CopyOnWriteArrayList<>();
        JobEvents events = new JobEvents() {
            @Override
            public void scheduled(ScheduleResult result) {
                scheduled.add(result.id());
            }
        };
        Hourglass hourglass =
                factory.create(b -> b.coldTier(tier, Duration.ofSeconds(1)).events(events));
        Hourglass redisOnly = factory.create();
        Map<String, Long> lateMs = new ConcurrentHashMap<>();
        List<String> deliveries = new CopyOnWriteArrayList<>();
        hourglass.subscribe(TOPIC, job -> {
            deliveries.add(job.id());
            lateMs.put(job.id(), System.currentTimeMillis() - job.dueAt().toEpochMilli());
        });

        Instant start = Instant.now();
        for (int i = 0; i < 20; i++) {
            ScheduleResult r = hourglass.schedule(JobRequest.builder(TOPIC)
                    .id("far-" + i)
                    .payload("p" + i)
                    .runAt(start.plusMillis(3000 + 25L * i))
                    .build());
            assertThat(r.outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
            assertThat(r.state()).isEqualTo(JobState.SCHEDULED);
        }
        hourglass.schedule(JobRequest.builder(TOPIC)
                .id("near")
                .delay(Duration.ofMillis(200))
                .build());

        // Beyond the horizon: in PostgreSQL only, yet readable through the one API.
        assertThat(rows()).isEqualTo(20);
        assertThat(redisOnly.get(TOPIC, "far-3")).isEmpty();
        JobInfo far = hourglass.get(TOPIC, "far-3").orElseThrow();
        assertThat(far.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(far.dueAt()).isEqualTo(start.plusMillis(3075).truncatedTo(ChronoUnit.MILLIS));
        assertThat(far.payloadAsString()).isEqualTo("p3");
        assertThat(redisOnly.get(TOPIC, "near")).isPresent();

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() >= 21);
        Thread.sleep(200);
        assertThat(deliveries).hasSize(21).doesNotHaveDuplicates();
        assertThat(lateMs.values()).allSatisfy(late -> assertThat(late).isGreaterThanOrEqualTo(0L));
        assertThat(rows()).isZero();
        assertThat(tier.movedJobs()).isEqualTo(20);
        // Told once per job: the move into Redis is not a second schedule.
        assertThat(scheduled).hasSize(21).doesNotHaveDuplicates();
        assertThat(tier.lag()).isEqualTo(Duration.ZERO);
    }

    @Test
    void rescheduleMovesAJobBetweenTheTiersBothWaysKeepingItsOptions(HourglassFactory factory) throws Exception {
        JdbcColdTier tier = tier(factory, dataSource).feeder(false).build();
        Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofHours(1)));
        Hourglass redisOnly = factory.create();
        Instant far = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);
        hourglass.schedule(JobRequest.builder(TOPIC)
                .id("r-1")
                .payload("{\"user\":7}")
                .runAt(far)
                .maxAttempts(3)
                .backoff(Backoff.fixed(Duration.ofSeconds(5)))
                .lease(Duration.ofSeconds(20))
                .ttl(Duration.ofDays(1))
                .priority(3)
                .build());
        assertThat(rows()).isEqualTo(1);

        // Into Redis, with every option it was scheduled with.
        ScheduleResult near =
                hourglass.reschedule(TOPIC, "r-1", Duration.ofMinutes(5)).orElseThrow();
        assertThat(near.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(rows()).isZero();
        JobInfo inRedis = redisOnly.get(TOPIC, "r-1").orElseThrow();
        assertThat(inRedis.dueAt()).isEqualTo(near.dueAt());
        assertThat(inRedis.payloadAsString()).isEqualTo("{\"user\":7}");
        assertThat(inRedis.maxAttempts()).isEqualTo(3);
        assertThat(inRedis.backoff()).isEqualTo(Backoff.fixed(Duration.ofSeconds(5)));
        assertThat(inRedis.lease()).isEqualTo(Duration.ofSeconds(20));
        assertThat(inRedis.expiresAt()).isEqualTo(near.dueAt().plus(Duration.ofDays(1)));
        assertThat(inRedis.priority()).isEqualTo(3);

        // Back out of Redis, leaving no reservation of its id behind.
        Instant later = Instant.now().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.MILLIS);
        assertThat(hourglass.reschedule(TOPIC, "r-1", later).orElseThrow().dueAt())
                .isEqualTo(later);
        assertThat(rows()).isEqualTo(1);
        assertThat(redisOnly.get(TOPIC, "r-1")).isEmpty();
        assertThat(hourglass.get(TOPIC, "r-1").orElseThrow().payloadAsString()).isEqualTo("{\"user\":7}");
        assertThat(hourglass.get(TOPIC, "r-1").orElseThrow().priority()).isEqualTo(3);
        assertThat(hourglass.reschedule(TOPIC, "r-1", Duration.ofMinutes(1))).isPresent();
        assertThat(redisOnly.get(TOPIC, "r-1")).isPresent();

        // A reschedule within the cold tier, and a cancel there.
        hourglass.reschedule(TOPIC, "r-1", later);
        assertThat(hourglass.reschedule(TOPIC, "r-1", later.plusSeconds(60))).isPresent();
        assertThat(hourglass.get(TOPIC, "r-1").orElseThrow().dueAt()).isEqualTo(later.plusSeconds(60));
        assertThat(hourglass.cancel(TOPIC, "r-1")).isTrue();
        assertThat(hourglass.cancel(TOPIC, "r-1")).isFalse();
        assertThat(hourglass.get(TOPIC, "r-1")).isEmpty();
        assertThat(rows()).isZero();
        assertThat(hourglass.reschedule(TOPIC, "r-1", later)).isEmpty();
    }

    @Test
    void anIdInEitherTierIsAConflictAndTheIdempotencyWindowHoldsAcrossThem(HourglassFactory factory) throws Exception {
        JdbcColdTier tier = tier(factory, dataSource).feeder(false).build();
        Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofHours(1)));
        Hourglass redisOnly = factory.create();
        Instant far = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.MILLIS);

        hourglass.schedule(request("x", far, OnConflict.REJECT));
        assertThatThrownBy(() -> hourglass.schedule(request("x", null, OnConflict.REJECT)))
                .isInstanceOf(JobAlreadyExistsException.class);
        assertThatThrownBy(() -> hourglass.schedule(request("x", far.plusSeconds(1), OnConflict.REJECT)))
                .isInstanceOf(JobAlreadyExistsException.class);
        ScheduleResult kept = hourglass.schedule(request("x", null, OnConflict.KEEP));
        assertThat(kept.outcome()).isEqualTo(ScheduleResult.Outcome.KEPT);
        assertThat(kept.dueAt()).isEqualTo(far);
        assertThat(hourglass
                        .schedule(request("x", far.plusSeconds(1), OnConflict.REPLACE))
                        .outcome())
                .isEqualTo(ScheduleResult.Outcome.REPLACED);
        assertThat(hourglass.get(TOPIC, "x").orElseThrow().dueAt()).isEqualTo(far.plusSeconds(1));

        // Replaced by a job due soon: it leaves the cold tier.
        assertThat(hourglass.schedule(request("x", null, OnConflict.REPLACE)).outcome())
                .isEqualTo(ScheduleResult.Outcome.REPLACED);
        assertThat(rows()).isZero();
        assertThat(redisOnly.get(TOPIC, "x")).isPresent();
        assertThatThrownBy(() -> hourglass.schedule(request("x", far, OnConflict.REJECT)))
                .isInstanceOf(JobAlreadyExistsException.class);
        assertThat(hourglass.schedule(request("x", far, OnConflict.KEEP)).state())
                .isEqualTo(JobState.READY);
        // Replaced by a far one: it leaves Redis.
        assertThat(hourglass.schedule(request("x", far, OnConflict.REPLACE)).outcome())
                .isEqualTo(ScheduleResult.Outcome.REPLACED);
        assertThat(rows()).isEqualTo(1);
        assertThat(redisOnly.get(TOPIC, "x")).isEmpty();

        // A job that ended within its idempotency window keeps its id from the cold tier too.
        hourglass.schedule(request("y", null, OnConflict.REJECT));
        assertThat(hourglass.cancel(TOPIC, "y")).isTrue();
        assertThatThrownBy(() -> hourglass.schedule(request("y", far, OnConflict.REJECT)))
                .isInstanceOfSatisfying(
                        JobAlreadyExistsException.class,
                        e -> assertThat(e.existing().ended()).isEqualTo(ScheduleResult.Ended.CANCELLED));
        assertThat(hourglass.schedule(request("y", far, OnConflict.KEEP)).ended())
                .isEqualTo(ScheduleResult.Ended.CANCELLED);
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void aRetainedCompletedJobKeepsItsIdFromTheColdTierUntilItsRetentionEnds(HourglassFactory factory)
            throws Exception {
        JdbcColdTier tier = tier(factory, dataSource).feeder(false).build();
        // No window: the retention alone keeps the ids, in entries whose ends are their scores in `completed`.
        Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofHours(1))
                .idempotencyWindow(Duration.ZERO)
                .completedRetention(TOPIC, Duration.ofHours(1))
                .completedRetention("brief", Duration.ofMillis(200)));
        Instant far = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.MILLIS);
        for (String topic : List.of(TOPIC, "brief")) {
            hourglass.schedule(JobRequest.builder(topic).id("done").build());
            Delivery d = hourglass.reserve(topic, 1, null).get(0);
            hourglass.ack(topic, "done", d.receipt());
        }
        assertThat(hourglass.get(TOPIC, "done").orElseThrow().state()).isEqualTo(JobState.COMPLETED);

        assertThatThrownBy(() -> hourglass.schedule(request("done", far, OnConflict.REJECT)))
                .isInstanceOfSatisfying(
                        JobAlreadyExistsException.class,
                        e -> assertThat(e.existing().ended()).isEqualTo(ScheduleResult.Ended.ACKED));
        assertThat(hourglass.schedule(request("done", far, OnConflict.KEEP)).ended())
                .isEqualTo(ScheduleResult.Ended.ACKED);
        assertThat(rows()).isZero();

        // Once its retention is over, the id is free for the cold tier.
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> hourglass.get("brief", "done").isEmpty());
        ScheduleResult again = hourglass.schedule(
                JobRequest.builder("brief").id("done").runAt(far).build());
        assertThat(again.outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThat(rows()).isEqualTo(1);
    }

    private static JobRequest request(String id, Instant runAt, OnConflict onConflict) {
        JobRequest.Builder b = JobRequest.builder(TOPIC).id(id).onConflict(onConflict);
        if (runAt != null) {
            b.runAt(runAt);
        }
        return b.build();
    }

    @Test
    void aCancelRacingTheFeedersMoveRemovesTheJobFromBothTiers(HourglassFactory factory) throws Exception {
        // A lead time longer than the jobs are away: every row can be moved at once.
        JdbcColdTier tier = tier(factory, dataSource)
                .feeder(false)
                .batchSize(10)
                .leadTime(Duration.ofMinutes(1))
                .build();
        Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofSeconds(1)));
        Hourglass redisOnly = factory.create();
        Instant due = Instant.now().plusSeconds(30);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(hourglass
                    .schedule(JobRequest.builder(TOPIC).runAt(due).build())
                    .id());
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> feeding = pool.submit(() -> {
                while (tier.feedOnce() > 0) {
                    Thread.onSpinWait();
                }
                return null;
            });
            Future<Integer> cancelled = pool.submit(() -> {
                int n = 0;
                for (String id : ids) {
                    n += hourglass.cancel(TOPIC, id) ? 1 : 0;
                }
                return n;
            });
            feeding.get();
            assertThat(cancelled.get()).isEqualTo(100);
        } finally {
            pool.shutdownNow();
        }
        assertThat(rows()).isZero();
        assertThat(redisOnly.stats(TOPIC).scheduled() + redisOnly.stats(TOPIC).ready())
                .isZero();
    }

    @Test
    void twoFeedersAtOnceMoveEachJobOnce(HourglassFactory factory) throws Exception {
        // Two instances, as in two processes, each with its own tier on the same table. A lead time longer than the
        // jobs are away: every row can be moved at once.
        List<JdbcColdTier> tiers = new ArrayList<>();
        List<Hourglass> instances = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            JdbcColdTier tier = tier(factory, dataSource)
                    .feeder(false)
                    .batchSize(20)
                    .leadTime(Duration.ofMinutes(1))
                    .build();
            tiers.add(tier);
            instances.add(factory.create(b -> b.coldTier(tier, Duration.ofSeconds(1))));
        }
        Instant due = Instant.now().plusSeconds(30);
        for (int i = 0; i < 300; i++) {
            instances.get(i % 2).schedule(JobRequest.builder(TOPIC).runAt(due).build());
        }
        assertThat(rows()).isEqualTo(300);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> feeders = new ArrayList<>();
            for (JdbcColdTier tier : tiers) {
                feeders.add(pool.submit(() -> {
                    while (rows() > 0) {
                        tier.feedOnce();
                    }
                    return null;
                }));
            }
            for (Future<?> f : feeders) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        // A row taken by both would count twice.
        assertThat(tiers.get(0).movedJobs() + tiers.get(1).movedJobs()).isEqualTo(300);
        TopicStats stats = factory.create().stats(TOPIC);
        assertThat(stats.scheduled() + stats.ready()).isEqualTo(300);
    }

    @Test
    void aFeederThatDiesBetweenRedisAndItsCommitLosesNothingAndRunsNothingTwice(HourglassFactory factory)
            throws Exception {
        List<JdbcColdTier> tiers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            JdbcColdTier tier = tier(factory, dataSource)
                    .feeder(false)
                    .leadTime(Duration.ofMinutes(1))
                    .build();
            tiers.add(tier);
            factory.create(b -> b.coldTier(tier, Duration.ofSeconds(1)));
        }
        Hourglass hourglass = factory.create(
                b -> b.coldTier(tier(factory, dataSource).feeder(false).build(), Duration.ofSeconds(1)));
        Instant due = Instant.now().plusSeconds(30);
        for (int i = 0; i < 20; i++) {
            hourglass.schedule(JobRequest.builder(TOPIC).id("d-" + i).runAt(due).build());
        }

        tiers.get(0).feeder().beforeCommit = () -> {
            throw new IllegalStateException("feeder killed before its commit");
        };
        assertThatThrownBy(tiers.get(0)::feedOnce).hasMessageContaining("killed");
        // Redis has every job, PostgreSQL still every row: the rows' locks went with the transaction.
        assertThat(rows()).isEqualTo(20);
        assertThat(hourglass.stats(TOPIC).scheduled()).isEqualTo(20);

        // Another process's feeder finds them in Redis and deletes the rows, once they are older than the grace time
        // that lets a job on its way out of Redis leave it (shortened here).
        assertThat(tiers.get(1).feedOnce()).isZero();
        assertThat(rows()).isEqualTo(20);
        tiers.get(1).feeder().moveGraceMs = 0;
        assertThat(tiers.get(1).feedOnce()).isEqualTo(20);
        assertThat(rows()).isZero();
        assertThat(hourglass.stats(TOPIC).scheduled()).isEqualTo(20);
        for (int i = 0; i < 20; i++) {
            assertThat(hourglass.get(TOPIC, "d-" + i).orElseThrow().dueAt())
                    .isEqualTo(due.truncatedTo(ChronoUnit.MILLIS));
        }
    }

    @Test
    void aJobRedisRefusesIsSetAsideAndHoldsUpNoOther(HourglassFactory factory) throws Exception {
        JdbcColdTier storing = tier(factory, dataSource).feeder(false).build();
        Hourglass producer = factory.create(b -> b.coldTier(storing, Duration.ofSeconds(1)));
        // A feeding process with a lower payload limit than the producer's, taking one job a pass.
        JdbcColdTier feeding = tier(factory, dataSource)
                .feeder(false)
                .batchSize(1)
                .leadTime(Duration.ofMinutes(1))
                .build();
        factory.create(b -> b.coldTier(feeding, Duration.ofSeconds(1)).maxPayloadBytes(1024));
        Instant due = Instant.now().plusSeconds(30);
        producer.schedule(JobRequest.builder(TOPIC)
                .id("big")
                .payload(new byte[2048])
                .runAt(due)
                .build());
        producer.schedule(
                JobRequest.builder(TOPIC).id("small").runAt(due.plusMillis(1)).build());

        assertThat(feeding.feedOnce()).isZero();
        assertThat(feeding.feedOnce()).isEqualTo(1);
        assertThat(feeding.feedOnce()).isZero();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT id, last_error FROM " + JdbcColdTier.TABLE)) {
            assertThat(r.next()).isTrue();
            assertThat(r.getString("id")).isEqualTo("big");
            assertThat(r.getString("last_error")).contains("payload");
            assertThat(r.next()).isFalse();
        }
        // A reschedule within the horizon, by a process that accepts the job, moves it.
        assertThat(producer.reschedule(TOPIC, "big", Duration.ZERO)).isPresent();
        assertThat(rows()).isZero();
    }

    @Test
    void aFeederThatFellBehindCatchesUpWithNoJobEarly(HourglassFactory factory) throws Exception {
        JdbcColdTier tier =
                tier(factory, dataSource).feeder(false).batchSize(10).build();
        Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofSeconds(1)));
        Map<String, Long> lateMs = new ConcurrentHashMap<>();
        hourglass.subscribe(
                TOPIC,
                job -> lateMs.put(
                        job.id(), System.currentTimeMillis() - job.dueAt().toEpochMilli()));
        Instant start = Instant.now();
        for (int i = 0; i < 50; i++) {
            hourglass.schedule(JobRequest.builder(TOPIC)
                    .runAt(start.plusMillis(2500 + 10L * i))
                    .build());
        }
        assertThat(rows()).isEqualTo(50);
        // The feeder was away until every job was due.
        Thread.sleep(Duration.between(Instant.now(), start.plusMillis(3100)).toMillis());
        tier.feedOnce();
        assertThat(tier.lag()).isGreaterThan(Duration.ofMillis(500));
        while (tier.feedOnce() > 0) {
            Thread.onSpinWait();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> lateMs.size() == 50);
        assertThat(lateMs.values()).allSatisfy(late -> assertThat(late).isGreaterThanOrEqualTo(0L));
        assertThat(tier.lag()).isEqualTo(Duration.ZERO);
        assertThat(rows()).isZero();
    }

    @Test
    void theBacklogCountsTheWaitingJobsPerTopicAndStopsCountingAtItsLimit(HourglassFactory factory) throws Exception {
        JdbcColdTier tier = tier(factory, dataSource).feeder(false).build();
        assertThat(tier.horizon()).isEmpty();
        JdbcColdTier.Backlog empty = tier.backlog();
        assertThat(empty.jobs()).isZero();
        assertThat(empty.exact()).isTrue();
        assertThat(empty.topics()).isEmpty();
        assertThat(empty.earliestDue()).isNull();
        assertThat(empty.lag(Duration.ofHours(1), Instant.now())).isEqualTo(Duration.ZERO);

        Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofHours(1)));
        assertThat(tier.horizon()).contains(Duration.ofHours(1));
        Instant due = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);
        hourglass.schedule(JobRequest.builder(TOPIC).runAt(due.plusSeconds(60)).build());
        hourglass.schedule(JobRequest.builder(TOPIC).runAt(due).build());
        hourglass.schedule(JobRequest.builder("mails").runAt(due).build());
        hourglass.schedule(
                JobRequest.builder("mails").delay(Duration.ofMinutes(5)).build());

        JdbcColdTier.Backlog backlog = tier.backlog();
        assertThat(backlog.jobs()).isEqualTo(3);
        assertThat(backlog.exact()).isTrue();
        assertThat(backlog.topics()).containsExactly(Map.entry("mails", 1L), Map.entry(TOPIC, 2L));
        assertThat(backlog.earliestDue()).isEqualTo(due);
        assertThat(backlog.lag(Duration.ofHours(1), Instant.now())).isEqualTo(Duration.ZERO);
        // At its due time the earliest job has been within the horizon for the horizon's length.
        assertThat(backlog.lag(Duration.ofHours(1), due)).isEqualTo(Duration.ofHours(1));

        // Beyond the count's limit (small here; 100,000 in production), the count stops and says so.
        JdbcColdTier.Backlog beyond = tier.backlog(2);
        assertThat(beyond.jobs()).isEqualTo(2);
        assertThat(beyond.exact()).isFalse();
        assertThat(beyond.topics()).isNull();
        assertThat(beyond.earliestDue()).isEqualTo(due);
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("ANALYZE " + JdbcColdTier.TABLE);
        }
        assertThat(tier.backlog().tableRowsEstimate()).isEqualTo(3);
    }

    @Test
    void aRescheduleBeyondTheHorizonOfAJobAFeederCrashLeftInBothTiersTakesItOutOfRedis(HourglassFactory factory)
            throws Exception {
        JdbcColdTier feeding = tier(factory, dataSource)
                .feeder(false)
                .leadTime(Duration.ofMinutes(1))
                .build();
        factory.create(b -> b.coldTier(feeding, Duration.ofSeconds(1)));
        Hourglass hourglass = factory.create(
                b -> b.coldTier(tier(factory, dataSource).feeder(false).build(), Duration.ofSeconds(1)));
        hourglass.schedule(JobRequest.builder(TOPIC)
                .id("both")
                .runAt(Instant.now().plusSeconds(30))
                .build());
        feeding.feeder().beforeCommit = () -> {
            throw new IllegalStateException("feeder killed before its commit");
        };
        assertThatThrownBy(feeding::feedOnce).hasMessageContaining("killed");
        assertThat(rows()).isEqualTo(1);
        assertThat(hourglass.stats(TOPIC).scheduled()).isEqualTo(1);

        Instant later = Instant.now().plusSeconds(50).truncatedTo(ChronoUnit.MILLIS);
        assertThat(hourglass.reschedule(TOPIC, "both", later)).isPresent();

        // Only PostgreSQL holds it, at the new due time: the copy the crash left in Redis would run at the old one.
        assertThat(hourglass.stats(TOPIC).scheduled()).isZero();
        assertThat(rows()).isEqualTo(1);
        assertThat(hourglass.get(TOPIC, "both").orElseThrow().dueAt()).isEqualTo(later);
        // Its id is not reserved in Redis: the next move schedules it there, at the new due time.
        feeding.feeder().beforeCommit = () -> {};
        assertThat(feeding.feedOnce()).isEqualTo(1);
        assertThat(rows()).isZero();
        JobInfo moved = hourglass.get(TOPIC, "both").orElseThrow();
        assertThat(moved.state()).isEqualTo(JobState.SCHEDULED);
        assertThat(moved.dueAt()).isEqualTo(later);
    }

    @Test
    void aRowWrittenWhileItsJobIsStillLiveInRedisStaysUntilTheGraceTimeRatherThanBeingDroppedAsAMovedOne(
            HourglassFactory factory) throws Exception {
        JdbcColdTier feeding = tier(factory, dataSource)
                .feeder(false)
                .leadTime(Duration.ofMinutes(1))
                .build();
        Hourglass hourglass = factory.create(b -> b.coldTier(feeding, Duration.ofSeconds(1)));
        hourglass.schedule(JobRequest.builder(TOPIC)
                .id("leaving")
                .runAt(Instant.now().plusMillis(500))
                .build());
        // A reschedule into the cold tier half done: its row is written, the job is not out of Redis yet.
        feeding.store(JobRequest.builder(TOPIC)
                .id("leaving")
                .runAt(Instant.now().plusSeconds(30))
                .maxAttempts(3)
                .lease(Duration.ofSeconds(30))
                .backoff(Backoff.fixed(Duration.ofSeconds(1)))
                .idempotencyWindow(Duration.ofHours(1))
                .build());

        // Dropping it as a job already in Redis would lose the job once the reschedule takes it out of Redis.
        assertThat(feeding.feedOnce()).isZero();
        assertThat(rows()).isEqualTo(1);

        // Past the grace time it is what a crash left behind, and Redis's copy is the job.
        feeding.feeder().moveGraceMs = 0;
        assertThat(feeding.feedOnce()).isEqualTo(1);
        assertThat(rows()).isZero();
        assertThat(hourglass.stats(TOPIC).scheduled() + hourglass.stats(TOPIC).ready())
                .isEqualTo(1);
    }
}
