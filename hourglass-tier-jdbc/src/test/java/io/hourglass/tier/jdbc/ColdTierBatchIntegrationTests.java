package io.hourglass.tier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.hourglass.ColdTierUnavailableException;
import io.hourglass.Hourglass;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobEvents;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * {@code scheduleAll} with a cold tier: the far jobs of a batch reach PostgreSQL as multi-row inserts, and every job
 * gets the outcome its own {@code schedule} would have given it (real PostgreSQL and Redis, topics of 4 shards).
 */
@RedisTest(shards = 4)
@PostgresTest
class ColdTierBatchIntegrationTests {
    private static final String BATCH = "batch";
    private static final String SINGLE = "single";

    private static HikariDataSource dataSource;

    @BeforeAll
    static void connect(PostgresProcess postgres) {
        dataSource = ColdTierIntegrationTests.pool(postgres);
    }

    @AfterAll
    static void disconnect() {
        dataSource.close();
    }

    @BeforeEach
    void emptyTheColdTier(HourglassFactory factory) throws SQLException {
        ColdTierIntegrationTests.emptyTheColdTier(factory, dataSource);
    }

    private static long rows(String topic) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s =
                        c.prepareStatement("SELECT count(*) FROM " + JdbcColdTier.TABLE + " WHERE topic = ?")) {
            s.setString(1, topic);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static JobRequest job(String topic, String id, Instant due, OnConflict onConflict) {
        return JobRequest.builder(topic)
                .id(id)
                .payload(id == null ? "generated" : id)
                .runAt(due)
                .onConflict(onConflict)
                .build();
    }

    /** What a caller can tell of an outcome, without the generated id: the result's fields, or the exception's type. */
    private static String seen(CompletableFuture<ScheduleResult> outcome) {
        try {
            ScheduleResult r = outcome.join();
            return r.outcome() + " " + r.state() + " " + r.dueAt();
        } catch (CompletionException e) {
            return e.getCause().getClass().getSimpleName();
        }
    }

    private static CompletableFuture<ScheduleResult> scheduleAsync(Hourglass hourglass, JobRequest request) {
        try {
            return hourglass.scheduleAsync(request);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Test
    void scheduleAllGivesEveryJobTheOutcomeItsOwnScheduleGivesAndStoresTheFarOnesTogether(HourglassFactory factory)
            throws Exception {
        JdbcColdTier tier =
                ColdTierIntegrationTests.tier(factory, dataSource).feeder(false).build();
        List<String> told = new CopyOnWriteArrayList<>();
        Hourglass hourglass = factory.create(
                b -> b.coldTier(tier, Duration.ofHours(1)).maxPayloadBytes(1024).events(new JobEvents() {
                    @Override
                    public void scheduled(ScheduleResult result) {
                        told.add(result.topic());
                    }
                }));
        Instant far = Instant.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.MILLIS);
        Instant near = Instant.now().plus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.MILLIS);
        List<Function<String, JobRequest>> asked = List.of(
                t -> job(t, null, far, OnConflict.REJECT),
                t -> job(t, "new", far.plusMillis(1), OnConflict.REJECT),
                t -> job(t, "in-cold", far.plusMillis(2), OnConflict.KEEP),
                t -> job(t, "in-cold-too", far.plusMillis(3), OnConflict.REJECT),
                t -> job(t, "in-redis", far.plusMillis(4), OnConflict.REJECT),
                t -> job(t, "in-redis-kept", far.plusMillis(5), OnConflict.KEEP),
                t -> job(t, "twice", far.plusMillis(6), OnConflict.REJECT),
                t -> job(t, "twice", far.plusMillis(7), OnConflict.REJECT),
                t -> job(t, "replaced", far.plusMillis(8), OnConflict.REJECT),
                t -> job(t, "replaced", far.plusMillis(9), OnConflict.REPLACE),
                t -> job(t, "near", near, OnConflict.REJECT),
                t -> JobRequest.builder(t)
                        .id("too-big")
                        .payload(new byte[2048])
                        .runAt(far)
                        .build());
        for (String topic : List.of(BATCH, SINGLE)) {
            hourglass.schedule(job(topic, "in-cold", far.minusSeconds(60), OnConflict.REJECT));
            hourglass.schedule(job(topic, "in-cold-too", far.minusSeconds(60), OnConflict.REJECT));
            hourglass.schedule(job(topic, "in-redis", near.minusSeconds(60), OnConflict.REJECT));
            hourglass.schedule(job(topic, "in-redis-kept", near.minusSeconds(60), OnConflict.REJECT));
        }
        told.clear();

        List<CompletableFuture<ScheduleResult>> batch =
                hourglass.scheduleAll(asked.stream().map(a -> a.apply(BATCH)).toList());
        List<CompletableFuture<ScheduleResult>> single = new ArrayList<>();
        for (Function<String, JobRequest> a : asked) {
            single.add(scheduleAsync(hourglass, a.apply(SINGLE)));
        }

        assertThat(batch).hasSameSizeAs(asked);
        assertThat(batch.stream().map(ColdTierBatchIntegrationTests::seen).toList())
                .containsExactlyElementsOf(
                        single.stream().map(ColdTierBatchIntegrationTests::seen).toList())
                .containsExactly(
                        "CREATED SCHEDULED " + far,
                        "CREATED SCHEDULED " + far.plusMillis(1),
                        "KEPT SCHEDULED " + far.minusSeconds(60),
                        "JobAlreadyExistsException",
                        "JobAlreadyExistsException",
                        "KEPT SCHEDULED " + near.minusSeconds(60),
                        "CREATED SCHEDULED " + far.plusMillis(6),
                        "JobAlreadyExistsException",
                        "CREATED SCHEDULED " + far.plusMillis(8),
                        "REPLACED SCHEDULED " + far.plusMillis(9),
                        "CREATED SCHEDULED " + near,
                        "IllegalArgumentException");
        for (String id : List.of(
                "new", "in-cold", "in-cold-too", "in-redis", "in-redis-kept", "twice", "replaced", "near", "too-big")) {
            Optional<JobInfo> b = hourglass.get(BATCH, id);
            Optional<JobInfo> s = hourglass.get(SINGLE, id);
            assertThat(b.map(JobInfo::dueAt)).as(id).isEqualTo(s.map(JobInfo::dueAt));
            assertThat(b.map(JobInfo::payloadAsString)).as(id).isEqualTo(s.map(JobInfo::payloadAsString));
        }
        // generated, new, in-cold, in-cold-too, twice, replaced
        assertThat(rows(BATCH)).isEqualTo(rows(SINGLE)).isEqualTo(6);
        assertThat(told.stream().filter(BATCH::equals).count())
                .isEqualTo(told.stream().filter(SINGLE::equals).count())
                .isEqualTo(6);
    }

    @Test
    void withoutAColdTierScheduleAllGivesEachJobItsOwnOutcome(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.maxPayloadBytes(1024));
        Instant far = Instant.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.MILLIS);
        List<CompletableFuture<ScheduleResult>> outcomes = hourglass.scheduleAll(List.of(
                job(BATCH, "a", far, OnConflict.REJECT),
                JobRequest.builder(BATCH).id("too-big").payload(new byte[2048]).build(),
                job(BATCH, "a", far.plusSeconds(1), OnConflict.REJECT),
                job(BATCH, "a", far.plusSeconds(2), OnConflict.KEEP)));

        assertThat(outcomes.stream().map(ColdTierBatchIntegrationTests::seen).toList())
                .containsExactly(
                        "CREATED SCHEDULED " + far,
                        "IllegalArgumentException",
                        "JobAlreadyExistsException",
                        "KEPT SCHEDULED " + far);
        assertThat(hourglass.get(BATCH, "a").orElseThrow().dueAt()).isEqualTo(far);
    }

    /** A job as the core hands it to the tier: every option resolved. */
    private static JobRequest resolved(String id, Instant due, OnConflict onConflict) {
        return JobRequest.builder(BATCH)
                .id(id)
                .payload(id)
                .runAt(due)
                .maxAttempts(3)
                .lease(Duration.ofSeconds(30))
                .backoff(io.hourglass.Backoff.fixed(Duration.ofSeconds(1)))
                .idempotencyWindow(Duration.ZERO)
                .onConflict(onConflict)
                .build();
    }

    @Test
    void storeAllOfMoreThanOneInsertStoresEveryNewJobAndKeepsTheStoredOnes(HourglassFactory factory) throws Exception {
        JdbcColdTier tier =
                ColdTierIntegrationTests.tier(factory, dataSource).feeder(false).build();
        Instant far = Instant.now().plus(Duration.ofDays(200)).truncatedTo(ChronoUnit.MILLIS);
        int jobs = ColdJobTable.MAX_ROWS_PER_INSERT * 2 + 100;
        List<JobRequest> stored = new ArrayList<>();
        for (int i = 0; i < jobs; i += 5) {
            stored.add(resolved("job-" + i, far.minusSeconds(1), OnConflict.REJECT));
        }
        assertThat(tier.storeAll(stored))
                .allSatisfy(o -> assertThat(o.join().outcome()).isEqualTo(ScheduleResult.Outcome.CREATED));

        List<JobRequest> requests = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            requests.add(resolved("job-" + i, far.plusMillis(i), i % 10 == 0 ? OnConflict.REJECT : OnConflict.KEEP));
        }
        requests.add(JobRequest.builder(BATCH).id("unresolved").runAt(far).build());
        List<CompletableFuture<ScheduleResult>> outcomes = tier.storeAll(requests);

        for (int i = 0; i < jobs; i++) {
            if (i % 10 == 0) {
                assertThat(outcomes.get(i)).isCompletedExceptionally();
                assertThat(outcomes.get(i).handle((r, e) -> e).join()).isInstanceOf(JobAlreadyExistsException.class);
                continue;
            }
            ScheduleResult r = outcomes.get(i).join();
            assertThat(r.id()).isEqualTo("job-" + i);
            if (i % 5 == 0) {
                assertThat(r.outcome()).isEqualTo(ScheduleResult.Outcome.KEPT);
                assertThat(r.dueAt()).isEqualTo(far.minusSeconds(1));
            } else {
                assertThat(r.outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
                assertThat(r.dueAt()).isEqualTo(far.plusMillis(i));
            }
        }
        assertThat(outcomes.get(jobs).handle((r, e) -> e).join())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job: id, runAt");
        assertThat(rows(BATCH)).isEqualTo(jobs);
        assertThat(tier.find(BATCH, "job-1234").orElseThrow().runAt()).isEqualTo(far.plusMillis(1234));
        assertThat(tier.find(BATCH, "job-1235").orElseThrow().runAt()).isEqualTo(far.minusSeconds(1));
    }

    @Test
    void withPostgresUnreachableTheFarJobsOfABatchFailAndTheNearOnesAreScheduled(HourglassFactory factory) {
        PGSimpleDataSource nowhere = new PGSimpleDataSource();
        // A port nothing listens on: every connection is refused at once.
        nowhere.setUrl("jdbc:postgresql://127.0.0.1:1/none");
        nowhere.setConnectTimeout(1);
        JdbcColdTier tier = JdbcColdTier.builder()
                .namespace(factory.namespace())
                .dataSource(nowhere)
                .migrate(false)
                .feeder(false)
                .build();
        Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofHours(1)));
        Instant far = Instant.now().plus(Duration.ofDays(2));
        List<CompletableFuture<ScheduleResult>> outcomes = hourglass.scheduleAll(List.of(
                job(BATCH, null, far, OnConflict.REJECT),
                JobRequest.builder(BATCH)
                        .payload("near")
                        .delay(Duration.ofMinutes(1))
                        .build(),
                job(BATCH, null, far.plusSeconds(1), OnConflict.REJECT)));

        for (int i : List.of(0, 2)) {
            assertThat(outcomes.get(i).handle((r, e) -> e).join())
                    .isInstanceOf(ColdTierUnavailableException.class)
                    .hasMessageContaining("cold tier (PostgreSQL): storing jobs failed");
        }
        assertThat(outcomes.get(1).join().outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThat(hourglass.get(BATCH, outcomes.get(1).join().id())).isPresent();
    }
}
