package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.OnConflict;
import io.hourglass.ScheduleResult;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.HourglassPreset;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import io.hourglass.tier.jdbc.JdbcColdTier;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The cold tier ({@link JdbcColdTier}, on a real PostgreSQL) under the suites of the producer API, and on a Redis
 * Cluster. One PostgreSQL serves every nested class, each instance its own namespace.
 *
 * <p>The suites run once more on one shard with every instance they get holding a tier with a horizon of
 * {@link #HORIZON} ({@link TierOn}): their jobs due an hour or more ahead wait in PostgreSQL, those due within seconds
 * go to Redis, and schedule, get, cancel, reschedule, {@code onConflict} and the idempotency window must answer as
 * without the tier. Their assertions on Redis-only state that the tier changes: the stats' count of scheduled jobs
 * ({@code JobLifecycleSuite.farJobsInRedis}: jobs in the cold tier are not counted). The inspector reads Redis only
 * (its overview, pages, run-now and purge do not see the cold tier), so {@code InspectorSuite} is not run here.
 */
@PostgresTest
class ColdTierIntegrationTests {
    /** Far beyond the suites' near jobs (at most seconds ahead), far below their far ones (an hour or more). */
    static final Duration HORIZON = Duration.ofMinutes(1);

    static final String TOPIC = "renewals";

    private static HikariDataSource dataSource;

    @BeforeAll
    static void connect(PostgresProcess postgres) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.jdbcUrl());
        config.setUsername(postgres.user());
        config.setMaximumPoolSize(4);
        dataSource = new HikariDataSource(config);
        // Flyway makes the table, once for the class.
        JdbcColdTier.builder().namespace("any").dataSource(dataSource).build();
    }

    @AfterAll
    static void disconnect() {
        dataSource.close();
    }

    static JdbcColdTier.Builder tier(String namespace) {
        return JdbcColdTier.builder()
                .namespace(namespace)
                .dataSource(dataSource)
                .migrate(false);
    }

    /** Every instance a suite gets holds a cold tier with the default feeder. */
    interface TierOn extends HourglassPreset {
        @Override
        default HourglassBuilder preset(HourglassBuilder builder, String namespace) {
            return builder.coldTier(tier(namespace).build(), HORIZON);
        }
    }

    @Nested
    @RedisTest(shards = 1)
    class JobLifecycleOneShard extends JobLifecycleSuite implements TierOn {
        @Override
        boolean farJobsInRedis() {
            return false;
        }
    }

    @Nested
    @RedisTest(shards = 1)
    class IdempotencyWindowOneShard extends IdempotencyWindowSuite implements TierOn {}

    @Nested
    @RedisTest(clusterMasters = 3, shards = 8)
    class OnACluster {

        @Test
        void jobsCrossTheTiersBothWaysAndEachRunsOnceNeverEarly(HourglassFactory factory) throws Exception {
            // The test feeds: with a lead time of 5 s one pass moves every job due within 6 s.
            JdbcColdTier tier = tier(factory.namespace())
                    .feeder(false)
                    .leadTime(Duration.ofSeconds(5))
                    .build();
            Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofSeconds(1)));
            Hourglass redisOnly = factory.create();
            Instant due = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS);
            // Ids over every shard, so over every master.
            List<String> far = IntStream.range(0, 24).mapToObj(i -> "far-" + i).toList();
            for (String id : far) {
                ScheduleResult r = hourglass.schedule(job(id).runAt(due).build());
                assertThat(r.outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
            }
            hourglass.schedule(job("near").delay(Duration.ofMillis(100)).build());
            hourglass.schedule(job("hot").delay(Duration.ofMillis(500)).build());
            assertThat(rows(factory.namespace())).isEqualTo(24);
            assertThat(far)
                    .allSatisfy(id -> assertThat(redisOnly.get(TOPIC, id)).isEmpty());
            assertThat(hourglass.get(TOPIC, "far-5").orElseThrow().dueAt()).isEqualTo(due);

            // A conflict across the tiers, either way.
            assertThatThrownBy(() -> hourglass.schedule(job("far-2").build()))
                    .isInstanceOfSatisfying(
                            JobAlreadyExistsException.class,
                            e -> assertThat(e.existing().dueAt()).isEqualTo(due));
            assertThat(hourglass
                            .schedule(job("near")
                                    .runAt(due)
                                    .onConflict(OnConflict.KEEP)
                                    .build())
                            .state())
                    .isIn(JobState.SCHEDULED, JobState.READY);

            // A reschedule moves a cold job into Redis, and a job in Redis out of it.
            assertThat(hourglass.reschedule(TOPIC, "far-0", Duration.ofMillis(200)))
                    .isPresent();
            assertThat(redisOnly.get(TOPIC, "far-0")).isPresent();
            Instant inAnHour = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS);
            assertThat(hourglass
                            .reschedule(TOPIC, "hot", inAnHour)
                            .orElseThrow()
                            .dueAt())
                    .isEqualTo(inAnHour);
            assertThat(redisOnly.get(TOPIC, "hot")).isEmpty();
            assertThat(hourglass.get(TOPIC, "hot").orElseThrow().dueAt()).isEqualTo(inAnHour);

            // A cancel in the cold tier reserves the id in Redis, for schedules into either tier.
            assertThat(hourglass.cancel(TOPIC, "far-1")).isTrue();
            assertThat(hourglass.get(TOPIC, "far-1")).isEmpty();
            for (JobRequest again :
                    List.of(job("far-1").build(), job("far-1").runAt(due).build())) {
                assertThatThrownBy(() -> hourglass.schedule(again))
                        .isInstanceOfSatisfying(
                                JobAlreadyExistsException.class,
                                e -> assertThat(e.existing().ended()).isEqualTo(ScheduleResult.Ended.CANCELLED));
            }

            List<String> deliveries = new CopyOnWriteArrayList<>();
            Map<String, Long> lateMs = new ConcurrentHashMap<>();
            hourglass.subscribe(TOPIC, job -> {
                deliveries.add(job.id());
                lateMs.put(job.id(), System.currentTimeMillis() - job.dueAt().toEpochMilli());
            });
            assertThat(tier.feedOnce()).as("all but the moved, the cancelled").isEqualTo(22);
            assertThat(rows(factory.namespace())).as("the job an hour ahead").isEqualTo(1);

            List<String> expected = new ArrayList<>(far);
            expected.remove("far-1");
            expected.add("near");
            await().atMost(Duration.ofSeconds(15)).until(() -> deliveries.size() >= expected.size());
            Pause.millis(200);
            assertThat(deliveries).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(lateMs.values()).allSatisfy(late -> assertThat(late).isGreaterThanOrEqualTo(0L));
            assertThat(hourglass.cancel(TOPIC, "hot")).isTrue();
            assertThat(rows(factory.namespace())).isZero();
        }
    }

    static JobRequest.Builder job(String id) {
        return JobRequest.builder(TOPIC).id(id).payload(id);
    }

    static long rows(String namespace) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s =
                        c.prepareStatement("SELECT count(*) FROM " + JdbcColdTier.TABLE + " WHERE namespace = ?")) {
            s.setString(1, namespace);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
