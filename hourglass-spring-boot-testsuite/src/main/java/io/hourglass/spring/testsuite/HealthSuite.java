package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.WorkerOptions;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.health.HealthReport;
import io.hourglass.spring.health.HourglassHealthCheck;
import io.hourglass.spring.listener.ListenerStatus;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The {@code hourglass} health indicator: UP with details while Redis answers, DOWN when it does not, DOWN when ready
 * jobs wait for a listener of this application that has free slots and delivers nothing; off by property.
 */
@RedisTest
public abstract class HealthSuite extends SuiteSupport {
    private static final WorkerOptions FOUR =
            WorkerOptions.builder().concurrency(4).build();

    @Test
    void isUpWithTheNamespaceTheRedisAndTheListenedTopics(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace()).withBean(Listener.class).run(context -> {
            assertThat(context).hasBean("hourglassHealthIndicator").hasSingleBean(line().healthIndicatorType());
            context.getBean(HourglassTemplate.class).schedule("order-timeout", "o-1", "later", Duration.ofMinutes(5));
            BootLine.HealthView health = line().health(context);
            assertThat(health.status()).isEqualTo("UP");
            assertThat(health.details())
                    .containsEntry("namespace", redis.namespace())
                    .containsEntry("topics", 1)
                    .containsKey("listeners");
            assertThat((String) health.details().get("redis")).contains("(hourglass.redis)");
            @SuppressWarnings("unchecked")
            Map<String, Object> listened =
                    (Map<String, Object>) health.details().get("listeners");
            assertThat(listened).containsOnlyKeys("order-timeout");
        });
    }

    @Test
    void isDownWhenRedisDoesNotAnswer(HourglassFactory factory) throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.builder().build().start()) {
            runner(redis.uri(), factory.namespace())
                    .withPropertyValues("hourglass.command-timeout=500ms")
                    .run(context -> {
                        assertThat(line().health(context).status()).isEqualTo("UP");
                        redis.stop();
                        BootLine.HealthView health = line().health(context);
                        assertThat(health.status()).isEqualTo("DOWN");
                        assertThat(health.details()).containsKey("error");
                    });
        }
    }

    @Test
    void isOffWithManagementHealthHourglassEnabledFalse(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("management.health.hourglass.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(line().healthIndicatorType()));
    }

    @Test
    void aBadStallThresholdFailsTheStartUpNamingTheProperty(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("hourglass.health.stall-threshold=0s")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("hourglass.health.stall-threshold")));
    }

    @Test
    void reportsAStallWhenReadyJobsWaitWhileAListenerHasFreeSlotsAndDeliversNothing(HourglassFactory redis) {
        Hourglass hourglass = redis.create();
        hourglass.schedule(io.hourglass.JobRequest.builder("stuck").id("s-1").build());
        hourglass.schedule(io.hourglass.JobRequest.builder("stuck").id("s-2").build());
        MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
        AtomicReference<ListenerStatus> status = new AtomicReference<>(
                new ListenerStatus("stuck", "Stuck.onJob(String) of bean 'stuck'", true, FOUR, 0, null));
        HourglassHealthCheck check = new HourglassHealthCheck(
                hourglass, () -> List.of(status.get()), Duration.ofMinutes(1), clock, "redis://test (test)");

        assertThat(check.check().up()).as("first sight of ready jobs").isTrue();
        clock.advance(Duration.ofSeconds(59));
        assertThat(check.check().up()).isTrue();
        clock.advance(Duration.ofSeconds(1));
        HealthReport stalled = check.check();
        assertThat(stalled.up()).isFalse();
        assertThat(stalled.details().get("stalled"))
                .asString()
                .contains("stuck: 2 ready jobs and 4 free handler slots");

        status.set(new ListenerStatus("stuck", "m", true, FOUR, 0, clock.instant()));
        assertThat(check.check().up()).as("a delivery is progress").isTrue();
        status.set(new ListenerStatus("stuck", "m", true, FOUR, 4, clock.instant()));
        clock.advance(Duration.ofMinutes(5));
        assertThat(check.check().up()).as("no free slot: busy, not stalled").isTrue();
        status.set(new ListenerStatus("stuck", "m", false, FOUR, 0, null));
        assertThat(check.check().up())
                .as("no running listener of this application")
                .isTrue();
    }

    /** A listener, so that its topic appears in the details. */
    public static class Listener {
        @HourglassListener(topic = "order-timeout")
        void onJob(String payload) {}
    }

    /** A clock the test moves. */
    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
