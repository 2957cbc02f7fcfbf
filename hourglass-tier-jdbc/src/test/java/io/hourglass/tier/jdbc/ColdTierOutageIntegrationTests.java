package io.hourglass.tier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.ColdTierUnavailableException;
import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.ScheduleResult;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The cold tier while PostgreSQL or Redis is down. */
@RedisTest
@PostgresTest
class ColdTierOutageIntegrationTests {
    private static final String TOPIC = "reminders";

    private final PostgresProcess postgres;
    private final DataSource dataSource;

    ColdTierOutageIntegrationTests(PostgresProcess postgres) {
        this.postgres = postgres;
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setUrl(postgres.jdbcUrl());
        source.setUser(postgres.user());
        source.setConnectTimeout(2);
        this.dataSource = source;
    }

    @BeforeEach
    void emptyTheColdTier(HourglassFactory factory) throws SQLException {
        ColdTierIntegrationTests.emptyTheColdTier(factory, dataSource);
    }

    @Test
    void withPostgresDownAJobBeyondTheHorizonIsRefusedClearlyAndJobsWithinItGoToRedis(HourglassFactory factory) {
        JdbcColdTier tier = ColdTierIntegrationTests.tier(factory, dataSource).build();
        Hourglass hourglass = factory.create(b -> b.coldTier(tier, Duration.ofHours(1)));
        JobRequest far =
                JobRequest.builder(TOPIC).id("far").delay(Duration.ofDays(7)).build();
        postgres.stop();
        try {
            assertThatThrownBy(() -> hourglass.schedule(far))
                    .isInstanceOf(ColdTierUnavailableException.class)
                    .hasMessageContaining("cold tier (PostgreSQL): storing a job failed");
            assertThat(hourglass
                            .schedule(JobRequest.builder(TOPIC)
                                    .delay(Duration.ofMinutes(5))
                                    .build())
                            .outcome())
                    .isEqualTo(ScheduleResult.Outcome.CREATED);
            assertThat(hourglass
                            .schedule(JobRequest.builder(TOPIC).id("near").build())
                            .outcome())
                    .isEqualTo(ScheduleResult.Outcome.CREATED);
            assertThat(hourglass.get(TOPIC, "near")).isPresent();
            assertThat(hourglass.cancel(TOPIC, "near")).isTrue();
            // A miss cannot be told from a job in the cold tier while it is down.
            assertThatThrownBy(() -> hourglass.get(TOPIC, "far")).isInstanceOf(ColdTierUnavailableException.class);
        } finally {
            postgres.start();
        }
        assertThat(hourglass.schedule(far).outcome()).isEqualTo(ScheduleResult.Outcome.CREATED);
        assertThat(hourglass.get(TOPIC, "far")).isPresent();
    }

    @Test
    void withRedisDownTheFeederWaitsAndLosesNothing(HourglassFactory factory, RedisServerProcess redis)
            throws Exception {
        // A lead time longer than the jobs are away: the feeder would move them at once.
        JdbcColdTier tier = ColdTierIntegrationTests.tier(factory, dataSource)
                .leadTime(Duration.ofMinutes(1))
                .build();
        Hourglass hourglass =
                factory.create(b -> b.coldTier(tier, Duration.ofSeconds(1)).commandTimeout(Duration.ofSeconds(1)));
        redis.stop();
        Instant due = Instant.now().plusSeconds(30);
        // Generated ids: the cold tier needs no look at Redis for them.
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(hourglass
                    .schedule(JobRequest.builder(TOPIC).runAt(due).build())
                    .id());
        }
        assertThat(ColdTierIntegrationTests.rows(dataSource)).isEqualTo(10);
        assertThatThrownBy(tier::feedOnce).isInstanceOf(io.hourglass.RedisUnavailableException.class);
        assertThat(ColdTierIntegrationTests.rows(dataSource)).isEqualTo(10);
        assertThat(tier.movedJobs()).isZero();

        redis.start();
        await().atMost(Duration.ofSeconds(15)).until(() -> ColdTierIntegrationTests.rows(dataSource) == 0);
        assertThat(tier.movedJobs()).isEqualTo(10);
        for (String id : ids) {
            assertThat(hourglass.get(TOPIC, id).orElseThrow().dueAt()).isEqualTo(due.truncatedTo(ChronoUnit.MILLIS));
        }
    }
}
