package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.Backoff;
import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.HourglassSettings;
import io.hourglass.JobEvents;
import io.hourglass.JobInfo;
import io.hourglass.ScheduleResult;
import io.hourglass.TopicConfig;
import io.hourglass.spring.HourglassBuilderCustomizer;
import io.hourglass.spring.HourglassRedisConnection;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.PayloadConverter;
import io.hourglass.spring.autoconfigure.HourglassAutoConfiguration;
import io.hourglass.spring.autoconfigure.HourglassEmbeddedRedisAutoConfiguration;
import io.hourglass.spring.autoconfigure.HourglassMetricsAutoConfiguration;
import io.hourglass.spring.autoconfigure.HourglassProperties;
import io.hourglass.spring.listener.HourglassCallbackDelivery;
import io.hourglass.spring.listener.HourglassListenerContainer;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.annotation.Order;

/**
 * The auto-configuration's beans, every {@code hourglass.*} property, and each condition (on/off, back-off for the
 * application's own beans, customizers, observers).
 */
@RedisTest
public abstract class AutoConfigurationSuite extends SuiteSupport {

    @Test
    void theStarterListsTheSharedAutoConfigurationsAndItsLinesOwn() {
        assertThat(hourglassAutoConfigurationNames())
                .doesNotHaveDuplicates()
                .contains(
                        HourglassAutoConfiguration.class.getName(),
                        HourglassMetricsAutoConfiguration.class.getName(),
                        HourglassEmbeddedRedisAutoConfiguration.class.getName(),
                        "io.hourglass.spring.autoconfigure.HourglassHistoryMetricsAutoConfiguration",
                        "io.hourglass.spring.autoconfigure.HourglassHistoryAutoConfiguration",
                        "io.hourglass.spring.autoconfigure.HourglassColdTierAutoConfiguration",
                        "io.hourglass.spring.autoconfigure.HourglassColdTierMetricsAutoConfiguration")
                .hasSize(9);
    }

    @Test
    void createsTheInstanceTheTemplateAndTheListenerContainerWithTheCoresDefaults(HourglassFactory redis) {
        runner().withPropertyValues("hourglass.redis.uri=" + redis.redisUri()).run(context -> {
            assertThat(context)
                    .hasNotFailed()
                    .hasSingleBean(Hourglass.class)
                    .hasSingleBean(HourglassTemplate.class)
                    .hasSingleBean(HourglassListenerContainer.class)
                    .hasSingleBean(PayloadConverter.class)
                    .doesNotHaveBean(HourglassCallbackDelivery.class);
            HourglassSettings settings = context.getBean(Hourglass.class).settings();
            assertThat(settings.namespace()).isEqualTo(HourglassBuilder.DEFAULT_NAMESPACE);
            assertThat(settings.shards()).isEqualTo(HourglassBuilder.DEFAULT_SHARDS);
            assertThat(settings.defaultMaxAttempts()).isEqualTo(HourglassBuilder.DEFAULT_MAX_ATTEMPTS);
            assertThat(settings.defaultLease()).isEqualTo(HourglassBuilder.DEFAULT_LEASE);
            assertThat(settings.defaultBackoff()).isEqualTo(Backoff.DEFAULT);
            assertThat(settings.sweepInterval()).isEqualTo(HourglassBuilder.DEFAULT_SWEEP_INTERVAL);
            assertThat(settings.commandTimeout()).isEqualTo(HourglassBuilder.DEFAULT_COMMAND_TIMEOUT);
            assertThat(settings.maxPayloadBytes()).isEqualTo(HourglassBuilder.DEFAULT_MAX_PAYLOAD_BYTES);
            assertThat(settings.maxDelay()).isEqualTo(HourglassBuilder.DEFAULT_MAX_DELAY);
            assertThat(settings.pollingMode()).isFalse();
            assertThat(settings.replicasToWait()).isZero();
            assertThat(settings.callbackAllowList().isEmpty()).isTrue();
            assertThat(settings.tlsTrustedCertificates()).isNull();
            assertThat(settings.cluster()).isFalse();
            assertThat(settings.redisUris()).singleElement().hasToString(redis.redisUri());
        });
    }

    @Test
    void everyPropertyReachesTheBuilder(HourglassFactory redis, @TempDir Path dir) throws Exception {
        Path pem = Files.writeString(dir.resolve("ca.pem"), "not read unless a rediss:// connection is made");
        runner().withPropertyValues(
                        "hourglass.redis.uri=" + redis.redisUri(),
                        "hourglass.namespace=orders",
                        "hourglass.shards=4",
                        "hourglass.default-max-attempts=3",
                        "hourglass.default-lease=45s",
                        "hourglass.default-backoff=1s,5s",
                        "hourglass.sweep-interval=250ms",
                        "hourglass.command-timeout=3s",
                        "hourglass.max-payload-size=2KB",
                        "hourglass.max-delay=7d",
                        "hourglass.completed-retention=10m",
                        "hourglass.dead-letter-max-count=500",
                        "hourglass.dead-letter-max-age=3d",
                        "hourglass.polling-mode=true",
                        "hourglass.replication.wait-for-replicas=1",
                        "hourglass.replication.wait-timeout=2s",
                        "hourglass.redis.tls-trusted-certificates=" + pem,
                        "hourglass.callback-delivery.allow-list=api.example.com,*.example.org")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    HourglassSettings settings =
                            context.getBean(Hourglass.class).settings();
                    assertThat(settings.namespace()).isEqualTo("orders");
                    assertThat(settings.shards()).isEqualTo(4);
                    assertThat(settings.defaultMaxAttempts()).isEqualTo(3);
                    assertThat(settings.defaultLease()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(settings.defaultBackoff())
                            .isEqualTo(Backoff.stepped(Duration.ofSeconds(1), Duration.ofSeconds(5)));
                    assertThat(settings.sweepInterval()).isEqualTo(Duration.ofMillis(250));
                    assertThat(settings.commandTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(settings.maxPayloadBytes()).isEqualTo(2048);
                    assertThat(settings.maxDelay()).isEqualTo(Duration.ofDays(7));
                    assertThat(settings.pollingMode()).isTrue();
                    assertThat(settings.replicasToWait()).isEqualTo(1);
                    assertThat(settings.replicaWaitTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(settings.tlsTrustedCertificates()).isEqualTo(pem);
                    assertThat(settings.callbackAllowList()).containsExactly("api.example.com", "*.example.org");
                    assertThat(settings.completedRetention("any")).isEqualTo(Duration.ofMinutes(10));
                    assertThat(settings.deadLetterMaxCount("any")).isEqualTo(500);
                    assertThat(settings.deadLetterMaxAge("any")).isEqualTo(Duration.ofDays(3));
                });
    }

    @Test
    void theHistoryPropertiesTurnOnCompletionEventsWhichAreOffByDefault(HourglassFactory redis) {
        runner().withPropertyValues("hourglass.redis.uri=" + redis.redisUri()).run(context -> assertThat(
                        context.getBean(Hourglass.class).settings().historyStreamLength())
                .isZero());
        runner().withPropertyValues(
                        "hourglass.redis.uri=" + redis.redisUri(),
                        "hourglass.history.stream-length=5000",
                        "hourglass.history.payload-limit=4KB")
                .run(context -> {
                    HourglassSettings settings =
                            context.getBean(Hourglass.class).settings();
                    assertThat(settings.historyStreamLength()).isEqualTo(5000);
                    assertThat(settings.historyPayloadLimitBytes()).isEqualTo(4096);
                });
    }

    @Test
    void jobsScheduledThroughTheTemplateTakeThePropertiesDefaultsAndLimits(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues(
                        "hourglass.default-max-attempts=3",
                        "hourglass.default-lease=45s",
                        "hourglass.default-backoff=1s,5s",
                        "hourglass.max-payload-size=16B",
                        "hourglass.max-delay=1h")
                .run(context -> {
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    template.schedule("order-timeout", "order-1", "small", Duration.ofMinutes(5));
                    JobInfo job =
                            template.hourglass().get("order-timeout", "order-1").orElseThrow();
                    assertThat(job.maxAttempts()).isEqualTo(3);
                    assertThat(job.lease()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(job.backoff()).isEqualTo(Backoff.stepped(Duration.ofSeconds(1), Duration.ofSeconds(5)));
                    assertThatThrownBy(() -> template.schedule(
                                    "order-timeout", "too-large-payload-of-many-bytes", Duration.ZERO))
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining("payload");
                    assertThatThrownBy(() -> template.schedule("order-timeout", "x", Duration.ofHours(2)))
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining("delay");
                });
    }

    @Test
    void aBadPropertyFailsTheStartUpNamingTheField(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("hourglass.shards=0")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("shards")));
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("hourglass.namespace=not a namespace!")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void isOffWithHourglassEnabledFalse(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("hourglass.enabled=false")
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .doesNotHaveBean(Hourglass.class)
                        .doesNotHaveBean(HourglassTemplate.class)
                        .doesNotHaveBean(HourglassProperties.class)
                        .doesNotHaveBean(HourglassListenerContainer.class));
    }

    @Test
    void backsOffForTheApplicationsOwnHourglassAndTemplateUsesIt(HourglassFactory redis) {
        Hourglass own = redis.create();
        runner(redis.redisUri(), "ignored")
                .withBean("myHourglass", Hourglass.class, () -> own, definition -> definition.setDestroyMethodName(""))
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Hourglass.class);
                    assertThat(context.getBean(Hourglass.class)).isSameAs(own);
                    assertThat(context.getBean(HourglassTemplate.class).hourglass())
                            .isSameAs(own);
                });
    }

    @Test
    void customizersRunInOrderAfterTheProperties(HourglassFactory redis) {
        runner(redis.redisUri(), "from-properties")
                .withUserConfiguration(Customizers.class)
                .run(context -> {
                    Hourglass hourglass = context.getBean(Hourglass.class);
                    assertThat(hourglass.namespace()).isEqualTo("second");
                    assertThat(hourglass.settings().defaultBackoff()).isEqualTo(Backoff.fixed(Duration.ofSeconds(2)));
                });
    }

    @Test
    void everyJobEventsBeanObservesTheInstance(HourglassFactory redis) {
        RecordingEvents first = new RecordingEvents();
        RecordingEvents second = new RecordingEvents();
        runner(redis.redisUri(), redis.namespace())
                .withBean("first", JobEvents.class, () -> first)
                .withBean("second", JobEvents.class, () -> second)
                .run(context -> {
                    context.getBean(HourglassTemplate.class)
                            .schedule("order-timeout", "o-1", "x", Duration.ofMinutes(1));
                    assertThat(first.scheduled).extracting(ScheduleResult::id).containsExactly("o-1");
                    assertThat(second.scheduled).extracting(ScheduleResult::id).containsExactly("o-1");
                });
    }

    @Test
    void theApplicationsOwnRedisConnectionWins(HourglassFactory redis) {
        runner().withPropertyValues("hourglass.redis.uri=redis://unreachable.invalid:1")
                .withBean(
                        HourglassRedisConnection.class,
                        () -> HourglassRedisConnection.standalone(
                                io.lettuce.core.RedisURI.create(redis.redisUri()), "mine"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(HourglassRedisConnection.class).source())
                            .isEqualTo("mine");
                });
    }

    @Test
    void anUnreachableRedisFailsTheStartUp() {
        runner().withPropertyValues("hourglass.redis.uri=redis://127.0.0.1:1", "hourglass.command-timeout=1s")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void callbackDeliveryRunsWithTheContextWhenEnabled(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues(
                        "hourglass.callback-delivery.enabled=true",
                        "hourglass.callback-delivery.concurrency=3",
                        "hourglass.callback-delivery.timeout=4s",
                        "hourglass.callback-delivery.content-type=text/plain",
                        "hourglass.callback-delivery.signing-secret=0123456789abcdef",
                        "hourglass.callback-delivery.next-signing-secret=fedcba9876543210")
                .run(context -> {
                    HourglassCallbackDelivery delivery = context.getBean(HourglassCallbackDelivery.class);
                    assertThat(delivery.options().concurrency()).isEqualTo(3);
                    assertThat(delivery.options().timeout()).isEqualTo(Duration.ofSeconds(4));
                    assertThat(delivery.options().contentType()).isEqualTo("text/plain");
                    assertThat(delivery.options().signingSecret()).isEqualTo("0123456789abcdef");
                    assertThat(delivery.options().nextSigningSecret()).isEqualTo("fedcba9876543210");
                    assertThat(delivery.options().virtualThreads()).isFalse();
                    context.start();
                    assertThat(delivery.isRunning()).isTrue();
                    context.stop();
                    assertThat(delivery.isRunning()).isFalse();
                });
    }

    @Test
    void callbacksToInternalAddressesAreRefusedUnlessTheAllowListCoversThem(HourglassFactory redis) {
        io.hourglass.JobRequest toThisMachine = io.hourglass.JobRequest.builder("cb")
                .id("local")
                .delay(Duration.ofHours(1))
                .callbackUrl(java.net.URI.create("http://127.0.0.1:9/hook"))
                .build();
        runner(redis.redisUri(), redis.namespace()).run(context -> assertThatThrownBy(
                        () -> context.getBean(Hourglass.class).schedule(toThisMachine))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("callbackUrl: host 127.0.0.1 resolves to an internal address"));
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("hourglass.callback-delivery.allow-list=127.0.0.1")
                .run(context -> assertThat(context.getBean(Hourglass.class)
                                .schedule(toThisMachine)
                                .id())
                        .isEqualTo("local"));
    }

    @Test
    void aNextSigningSecretWithoutASigningSecretFailsTheStartUpByName(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues(
                        "hourglass.callback-delivery.enabled=true",
                        "hourglass.callback-delivery.next-signing-secret=fedcba9876543210")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageStartingWith("nextSigningSecret:"));
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void callbacksAreSentFromVirtualThreadsWhenAskedOrWhenSpringBootRunsOnThem(HourglassFactory redis) {
        for (String[] properties : List.of(
                new String[] {"hourglass.callback-delivery.virtual-threads=true"},
                new String[] {"spring.threads.virtual.enabled=true"})) {
            runner(redis.redisUri(), redis.namespace())
                    .withPropertyValues("hourglass.callback-delivery.enabled=true")
                    .withPropertyValues(properties)
                    .run(context -> assertThat(context.getBean(HourglassCallbackDelivery.class)
                                    .options()
                                    .virtualThreads())
                            .as("with %s", List.of(properties))
                            .isTrue());
        }
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void beforeJava21AskingForVirtualThreadsForCallbacksFailsTheStartUp(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues(
                        "hourglass.callback-delivery.enabled=true", "hourglass.callback-delivery.virtual-threads=true")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("hourglass.callback-delivery.virtual-threads: this JVM (Java")));
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("hourglass.callback-delivery.enabled=true", "spring.threads.virtual.enabled=true")
                .run(context -> assertThat(context.getBean(HourglassCallbackDelivery.class)
                                .options()
                                .virtualThreads())
                        .isFalse());
    }

    /** Two customizers, applied in {@link Order}. */
    static class Customizers {
        @org.springframework.context.annotation.Bean
        @Order(2)
        HourglassBuilderCustomizer second() {
            return builder -> builder.namespace("second");
        }

        @org.springframework.context.annotation.Bean
        @Order(1)
        HourglassBuilderCustomizer first() {
            return builder -> builder.namespace("first").defaultBackoff(Backoff.fixed(Duration.ofSeconds(2)));
        }
    }

    /** Records scheduling events. */
    static final class RecordingEvents implements JobEvents {
        final List<ScheduleResult> scheduled = new CopyOnWriteArrayList<>();

        @Override
        public void scheduled(ScheduleResult result) {
            scheduled.add(result);
        }
    }

    @Test
    void topicConfigPropertiesAreStoredInRedisAtStartUpAndABadOneFailsItNamingTheField(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues(
                        "hourglass.topic-config.emails.rate-per-second=50",
                        "hourglass.topic-config.emails.max-concurrency=4")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Hourglass.class).inspector().topicConfig("emails"))
                            .isEqualTo(new TopicConfig(50, 50, 4));
                });
        runner(redis.redisUri(), redis.namespace())
                .withPropertyValues("hourglass.topic-config.sms.max-concurrency=-1")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("hourglass.topic-config.sms: maxConcurrency:")));
    }
}
