package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.history.jdbc.HistoryArchiver;
import io.hourglass.history.jdbc.HistoryEntry;
import io.hourglass.history.jdbc.HistoryOutcome;
import io.hourglass.history.jdbc.HistoryQuery;
import io.hourglass.history.jdbc.HistoryStore;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.autoconfigure.HourglassColdTierMetricsAutoConfiguration;
import io.hourglass.spring.autoconfigure.HourglassHistoryMetricsAutoConfiguration;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import io.hourglass.tier.jdbc.JdbcColdTier;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The job history's archiver and the cold tier started from {@code hourglass.history.*} and {@code hourglass.tier.*},
 * on a real PostgreSQL and Redis: an acked job reaches PostgreSQL; a far-future job waits in PostgreSQL until the
 * feeder moves it into Redis; their meters; nothing of either without the properties or the module; bad values fail the
 * start-up naming the property; the password reaches no log.
 */
@RedisTest
@PostgresTest
@ExtendWith(OutputCaptureExtension.class)
public abstract class JdbcStorageSuite extends SuiteSupport {
    private static final Duration WAIT = Duration.ofSeconds(15);
    // The test's PostgreSQL trusts local connections, so any password does; it must reach no log.
    private static final String PASSWORD = "jdbc-s3cret-password";

    private ApplicationContextRunner runner(HourglassFactory redis) {
        return runner(redis.redisUri(), redis.namespace())
                .withConfiguration(
                        AutoConfigurations.of(line().metricsAutoConfigurations().toArray(Class<?>[]::new)));
    }

    @Test
    void anArchiverFromPropertiesArchivesAnAckedJobIntoPostgres(
            HourglassFactory redis, PostgresProcess postgres, CapturedOutput output) {
        runner(redis)
                .withBean(Acks.class)
                .withPropertyValues(
                        "hourglass.history.jdbc.url=" + postgres.jdbcUrl() + "?password=" + PASSWORD,
                        "hourglass.history.jdbc.user=" + postgres.user(),
                        "hourglass.history.jdbc.password=" + PASSWORD,
                        "hourglass.history.retention=7d",
                        "hourglass.history.consumer-name=suite")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(HistoryArchiver.class);
                    assertThat(context.getBean(HourglassProperties.class)
                                    .getHistory()
                                    .getStreamLength())
                            .as("the events are on by default with an archiver")
                            .isEqualTo(HourglassProperties.History.DEFAULT_ARCHIVED_STREAM_LENGTH);
                    context.getBean(HourglassTemplate.class).schedule("receipts", "r-1", "paid", Duration.ZERO);
                    HistoryStore store = context.getBean(HistoryStore.class);
                    // The schema is made in the background (the application starts without PostgreSQL): until
                    // then a query fails.
                    await().atMost(WAIT)
                            .ignoreExceptionsInstanceOf(SQLException.class)
                            .untilAsserted(() -> assertThat(store.query(HistoryQuery.builder()
                                                    .topic("receipts")
                                                    .jobId("r-1")
                                                    .build())
                                            .entries())
                                    .extracting(HistoryEntry::outcome)
                                    .containsExactly(HistoryOutcome.ACKED));
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get(HourglassHistoryMetricsAutoConfiguration.DROPPED_EVENTS)
                                    .functionCounter()
                                    .count())
                            .isZero();
                    assertThat(context.getBean(HourglassProperties.class)
                                    .getHistory()
                                    .getJdbc()
                                    .toString())
                            .doesNotContain(PASSWORD);
                });
        assertThat(output.getAll())
                .contains("job history: archiving namespace " + redis.namespace())
                .doesNotContain(PASSWORD);
    }

    @Test
    void aColdTierFromPropertiesKeepsAFarJobInPostgresUntilTheFeederMovesIt(
            HourglassFactory redis, PostgresProcess postgres, CapturedOutput output) {
        runner(redis)
                .withPropertyValues(
                        "hourglass.tier.jdbc.url=" + postgres.jdbcUrl(),
                        "hourglass.tier.jdbc.user=" + postgres.user(),
                        "hourglass.tier.jdbc.password=" + PASSWORD,
                        "hourglass.tier.horizon=1s",
                        "hourglass.tier.feeder.lead-time=0s",
                        "hourglass.tier.feeder.poll-interval=50ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBeansOfType(JdbcColdTier.class)).hasSize(1);
                    JdbcColdTier tier = context.getBean(JdbcColdTier.class);
                    Hourglass hourglass = context.getBean(Hourglass.class);
                    Instant due = Instant.now().plusSeconds(3);
                    hourglass.schedule(JobRequest.builder("renewals")
                            .id("u-7")
                            .runAt(due)
                            .payload("renew")
                            .build());
                    assertThat(coldRows(postgres, redis.namespace())).isEqualTo(1);
                    await().atMost(WAIT).until(() -> tier.movedJobs() == 1);
                    assertThat(coldRows(postgres, redis.namespace())).isZero();
                    JobInfo moved = hourglass.get("renewals", "u-7").orElseThrow();
                    assertThat(moved.state()).isIn(JobState.SCHEDULED, JobState.READY);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get(HourglassColdTierMetricsAutoConfiguration.FEEDER_MOVED)
                                    .functionCounter()
                                    .count())
                            .isEqualTo(1);
                    assertThat(registry.get(HourglassColdTierMetricsAutoConfiguration.FEEDER_LAG)
                                    .timeGauge()
                                    .value(TimeUnit.MILLISECONDS))
                            .isZero();
                });
        assertThat(output.getAll()).contains("cold tier: jobs of namespace").doesNotContain(PASSWORD);
    }

    @Test
    void withoutTheUrlsOrTheModulesThereIsNoArchiverTierOrPool(HourglassFactory redis, PostgresProcess postgres) {
        runner(redis)
                .withPropertyValues("hourglass.history.jdbc.url=", "hourglass.tier.jdbc.url= ")
                .run(context -> {
                    assertThat(context)
                            .hasNotFailed()
                            .doesNotHaveBean(HistoryArchiver.class)
                            .doesNotHaveBean(HistoryStore.class)
                            .doesNotHaveBean(JdbcColdTier.class)
                            .doesNotHaveBean("hourglassHistoryArchiving")
                            .doesNotHaveBean("hourglassColdTierFeeder")
                            .doesNotHaveBean("hourglassHistoryDroppedEvents");
                    assertThat(context.getBean(HourglassProperties.class)
                                    .getHistory()
                                    .getStreamLength())
                            .isZero();
                });
        runner(redis)
                .withClassLoader(new FilteredClassLoader("io.hourglass.history.jdbc", "io.hourglass.tier.jdbc"))
                .withPropertyValues(
                        "hourglass.history.jdbc.url=" + postgres.jdbcUrl(),
                        "hourglass.tier.jdbc.url=" + postgres.jdbcUrl(),
                        "hourglass.tier.horizon=1h")
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean("hourglassHistoryArchiving")
                        .doesNotHaveBean("hourglassColdTier"));
    }

    @Test
    void badValuesFailTheStartNamingTheProperty(HourglassFactory redis, PostgresProcess postgres) {
        String tier = "hourglass.tier.jdbc.url=" + postgres.jdbcUrl();
        String history = "hourglass.history.jdbc.url=" + postgres.jdbcUrl();
        List<String[]> cases = List.of(
                new String[] {"hourglass.tier.horizon:", tier, "hourglass.tier.horizon=-5s"},
                new String[] {"hourglass.tier.horizon: must be at least 1s", tier, "hourglass.tier.horizon=500ms"},
                new String[] {"hourglass.tier.horizon: required", tier},
                new String[] {
                    "hourglass.tier.feeder.batch-size:",
                    tier,
                    "hourglass.tier.horizon=1h",
                    "hourglass.tier.feeder.batch-size=0"
                },
                new String[] {"hourglass.history.retention:", history, "hourglass.history.retention=-1d"});
        for (String[] c : cases) {
            runner(redis)
                    .withPropertyValues(java.util.Arrays.copyOfRange(c, 1, c.length))
                    .run(context -> assertThat(context)
                            .as(String.join(", ", c))
                            .getFailure()
                            .satisfies(failure -> assertThat(messages(failure)).contains(c[0])));
        }
    }

    @Test
    void anArchiverThatCannotReachRedisFailsTheStartNamingTheAddress(HourglassFactory redis, PostgresProcess postgres)
            throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        runner().withPropertyValues(
                        "hourglass.redis.uri=redis://127.0.0.1:" + closedPort,
                        "hourglass.namespace=" + redis.namespace(),
                        "hourglass.fail-fast=false",
                        "hourglass.history.jdbc.url=" + postgres.jdbcUrl())
                .run(context -> assertThat(context).getFailure().satisfies(failure -> assertThat(messages(failure))
                        .contains("127.0.0.1:" + closedPort)
                        .contains("hourglass.redis")));
    }

    private static int coldRows(PostgresProcess postgres, String namespace) throws SQLException {
        try (Connection c = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), "");
                PreparedStatement count =
                        c.prepareStatement("SELECT count(*) FROM " + JdbcColdTier.TABLE + " WHERE namespace = ?")) {
            count.setString(1, namespace);
            try (ResultSet r = count.executeQuery()) {
                r.next();
                return r.getInt(1);
            }
        }
    }

    /** Acks every job of its topic. */
    public static class Acks {
        @HourglassListener(topic = "receipts")
        void receipt(String payload) {}
    }
}
