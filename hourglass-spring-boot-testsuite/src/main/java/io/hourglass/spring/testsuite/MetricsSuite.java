package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobState;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.metrics.HourglassMetrics;
import io.hourglass.spring.metrics.HourglassTopicGauges;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Micrometer metrics: counters and timers from the instance's events, per-topic gauges refreshed from Redis, all tagged
 * with the topic; none without a {@link MeterRegistry}.
 */
@RedisTest
public abstract class MetricsSuite extends SuiteSupport {
    private static final Duration WAIT = Duration.ofSeconds(10);

    /**
     * @param redis the test's Redis
     * @return a runner with Spring Boot's metrics auto-configurations (a simple registry)
     */
    protected ApplicationContextRunner metricsRunner(HourglassFactory redis) {
        return runner(redis.redisUri(), redis.namespace())
                .withConfiguration(
                        AutoConfigurations.of(line().metricsAutoConfigurations().toArray(Class<?>[]::new)));
    }

    @Test
    void countsSchedulingDeliveriesAcksRetriesAndDeadLettersPerTopic(HourglassFactory redis) {
        metricsRunner(redis)
                .withBean(Listeners.class)
                .withPropertyValues("hourglass.default-max-attempts=2", "hourglass.default-backoff=50ms")
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    template.schedule("ok", "o-1", "a", Duration.ZERO);
                    template.schedule("ok", "o-2", "b", Duration.ZERO);
                    template.schedule("broken", "b-1", "c", Duration.ZERO);
                    await().atMost(WAIT)
                            .until(() -> template.hourglass()
                                            .get("broken", "b-1")
                                            .map(job -> job.state() == JobState.DEAD)
                                            .orElse(false)
                                    && template.hourglass().get("ok", "o-2").isEmpty()
                                    && template.hourglass().get("ok", "o-1").isEmpty());
                    await().atMost(WAIT).untilAsserted(() -> {
                        assertThat(count(registry, HourglassMetrics.SCHEDULED, "ok"))
                                .isEqualTo(2);
                        assertThat(count(registry, HourglassMetrics.SCHEDULED, "broken"))
                                .isEqualTo(1);
                        assertThat(count(registry, HourglassMetrics.DELIVERED, "ok"))
                                .isEqualTo(2);
                        assertThat(count(registry, HourglassMetrics.DELIVERED, "broken"))
                                .isEqualTo(2);
                        assertThat(count(registry, HourglassMetrics.ACKED, "ok"))
                                .isEqualTo(2);
                        assertThat(count(registry, HourglassMetrics.RETRIED, "broken"))
                                .isEqualTo(1);
                        assertThat(count(registry, HourglassMetrics.DEAD_LETTERED, "broken"))
                                .isEqualTo(1);
                    });
                    assertThat(registry.get(HourglassMetrics.LATENESS)
                                    .tag("topic", "ok")
                                    .timer()
                                    .count())
                            .isEqualTo(2);
                    Timer acked = registry.get(HourglassMetrics.HANDLER_DURATION)
                            .tag("topic", "ok")
                            .tag("outcome", "acked")
                            .timer();
                    Timer failed = registry.get(HourglassMetrics.HANDLER_DURATION)
                            .tag("topic", "broken")
                            .tag("outcome", "failed")
                            .timer();
                    assertThat(acked.count()).isEqualTo(2);
                    assertThat(failed.count()).isEqualTo(2);
                });
    }

    @Test
    void topicGaugesAreRefreshedFromRedisPeriodically(HourglassFactory redis) {
        metricsRunner(redis)
                .withPropertyValues("hourglass.metrics.refresh-interval=100ms")
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    template.schedule("order-timeout", "o-1", "a", Duration.ofMinutes(5));
                    template.schedule("order-timeout", "o-2", "b", Duration.ofMinutes(5));
                    template.schedule("order-timeout", "o-3", "c", Duration.ZERO);
                    await().atMost(WAIT).untilAsserted(() -> {
                        assertThat(gauge(registry, "order-timeout", "scheduled"))
                                .isEqualTo(2);
                        assertThat(gauge(registry, "order-timeout", "ready")).isEqualTo(1);
                        assertThat(gauge(registry, "order-timeout", "active")).isZero();
                        assertThat(gauge(registry, "order-timeout", "dead")).isZero();
                    });
                    await().atMost(WAIT)
                            .untilAsserted(() -> assertThat(topicGauge(registry, HourglassTopicGauges.LATENCY))
                                    .isGreaterThan(0));
                    assertThat(topicGauge(registry, HourglassTopicGauges.PAUSED))
                            .isZero();
                    template.cancel("order-timeout", "o-1");
                    context.getBean(Hourglass.class).inspector().pause("order-timeout");
                    await().atMost(WAIT).untilAsserted(() -> {
                        assertThat(gauge(registry, "order-timeout", "scheduled"))
                                .isEqualTo(1);
                        assertThat(topicGauge(registry, HourglassTopicGauges.PAUSED))
                                .isEqualTo(1);
                    });
                });
    }

    @Test
    void thereAreNoMetersWithoutAMeterRegistry(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace()).run(context -> assertThat(context)
                .hasNotFailed()
                .doesNotHaveBean(HourglassMetrics.class)
                .doesNotHaveBean(HourglassTopicGauges.class));
    }

    private static double count(MeterRegistry registry, String name, String topic) {
        var counter = registry.find(name).tag("topic", topic).counter();
        return counter == null ? 0 : counter.count();
    }

    private static double topicGauge(MeterRegistry registry, String name) {
        var gauge = registry.find(name).tag("topic", "order-timeout").gauge();
        return gauge == null ? Double.NaN : gauge.value();
    }

    private static double gauge(MeterRegistry registry, String topic, String state) {
        var gauge = registry.find(HourglassTopicGauges.JOBS)
                .tag("topic", topic)
                .tag("state", state)
                .gauge();
        return gauge == null ? Double.NaN : gauge.value();
    }

    /** One listener that acks, one that always fails. */
    public static class Listeners {
        @HourglassListener(topic = "ok")
        void ok(String payload) {}

        @HourglassListener(topic = "broken")
        void broken(String payload) {
            throw new IllegalStateException("broken on purpose");
        }
    }
}
