package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.hourglass.Backoff;
import io.hourglass.HandlerThreads;
import io.hourglass.Hourglass;
import io.hourglass.Job;
import io.hourglass.JobInfo;
import io.hourglass.JobState;
import io.hourglass.NonRetryableException;
import io.hourglass.WorkerOptions;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassTemplate;
import io.hourglass.spring.listener.HourglassListenerContainer;
import io.hourglass.spring.listener.ListenerStatus;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.autoproxy.BeanNameAutoProxyCreator;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.test.context.FilteredClassLoader;

/**
 * {@link HourglassListener} methods: typed payloads and job metadata, return = ack (the return value the job's result),
 * throw = retry then dead letter, {@code NonRetryableException} or an unreadable payload = dead letter at once, the
 * failure log line's level and stack trace, placeholders and defaults, start-up validation naming the bean and the
 * method, and the lifecycle (start after refresh, graceful stop, hand-back).
 */
@RedisTest
public abstract class ListenerSuite extends SuiteSupport {
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Numbers the jobs of {@link #threadOfOneDelivery}, so that each context schedules an id of its own. */
    private final AtomicInteger threadJobs = new AtomicInteger();

    @Test
    void aListenerMethodReceivesTheTypedPayloadScheduledThroughTheTemplate(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean("orderTimeouts", OrderTimeouts.class)
                .run(context -> {
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    template.schedule(
                            "order-timeout", "order-42", new OrderTimeout(42, "unpaid"), Duration.ofMillis(100));
                    Delivery delivery =
                            context.getBean(OrderTimeouts.class).received.poll(10, TimeUnit.SECONDS);
                    assertThat(delivery).isEqualTo(new Delivery(new OrderTimeout(42, "unpaid"), "order-42", 1));
                    await().atMost(WAIT).until(() -> template.hourglass()
                            .get("order-timeout", "order-42")
                            .isEmpty());
                });
    }

    @Test
    void methodsMayTakeARawPayloadOnlyTheJobOrTheJobFirst(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace()).withBean(RawListeners.class).run(context -> {
            HourglassTemplate template = context.getBean(HourglassTemplate.class);
            template.schedule("text", "t-1", "hello", Duration.ZERO);
            template.schedule("bytes", "b-1", new byte[] {1, 2, 3}, Duration.ZERO);
            template.schedule("job-only", "j-1", "ignored", Duration.ZERO);
            template.schedule("job-first", "f-1", new OrderTimeout(7, "x"), Duration.ZERO);
            RawListeners listeners = context.getBean(RawListeners.class);
            await().atMost(WAIT).until(() -> listeners.seen.size() >= 4);
            assertThat(listeners.seen)
                    .containsExactlyInAnyOrder("text:hello", "bytes:3", "job-only:j-1", "job-first:f-1:7");
        });
    }

    @Test
    void genericPayloadParametersAreRead(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(BatchListener.class)
                .run(context -> {
                    context.getBean(HourglassTemplate.class)
                            .schedule(
                                    "batch",
                                    "b-1",
                                    List.of(new OrderTimeout(1, "a"), new OrderTimeout(2, "b")),
                                    Duration.ZERO);
                    assertThat(context.getBean(BatchListener.class).received.poll(10, TimeUnit.SECONDS))
                            .containsExactly(new OrderTimeout(1, "a"), new OrderTimeout(2, "b"));
                });
    }

    @Test
    void placeholdersAreResolvedAndAnnotationsWinOverThePropertiesDefaults(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(PlaceholderListeners.class)
                .withPropertyValues("app.topic=refund-poll", "app.concurrency=5", "hourglass.listener.concurrency=3")
                .run(context -> {
                    List<ListenerStatus> listeners =
                            context.getBean(HourglassListenerContainer.class).listeners();
                    assertThat(listeners)
                            .extracting(ListenerStatus::topic, ListenerStatus::concurrency, ListenerStatus::running)
                            .containsExactlyInAnyOrder(
                                    org.assertj.core.groups.Tuple.tuple("refund-poll", 5, true),
                                    org.assertj.core.groups.Tuple.tuple("defaults", 3, true));
                    assertThat(listeners)
                            .allSatisfy(status -> assertThat(status.method()).contains("PlaceholderListeners."));
                });
    }

    @Test
    void everyListenerPropertyIsADefaultTheAnnotationOverrides(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(OptionListeners.class)
                .withPropertyValues(
                        "hourglass.listener.concurrency=3",
                        "hourglass.listener.max-batch=5",
                        "hourglass.listener.handler-timeout=7s",
                        "hourglass.listener.shutdown-grace=9s")
                .run(context -> {
                    List<ListenerStatus> listeners =
                            context.getBean(HourglassListenerContainer.class).listeners();
                    assertThat(listeners)
                            .extracting(ListenerStatus::topic, ListenerStatus::options)
                            .containsExactlyInAnyOrder(
                                    org.assertj.core.groups.Tuple.tuple(
                                            "defaults",
                                            WorkerOptions.builder()
                                                    .concurrency(3)
                                                    .maxBatch(5)
                                                    .handlerTimeout(Duration.ofSeconds(7))
                                                    .shutdownGrace(Duration.ofSeconds(9))
                                                    .build()),
                                    org.assertj.core.groups.Tuple.tuple(
                                            "explicit",
                                            WorkerOptions.builder()
                                                    .concurrency(2)
                                                    .maxBatch(1)
                                                    .handlerTimeout(Duration.ofMillis(500))
                                                    .shutdownGrace(Duration.ofSeconds(1))
                                                    .build()));
                });
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void listenersRunOnVirtualThreadsWhenAskedOrWhenSpringBootRunsOnThem(HourglassFactory redis) {
        assertThat(threadOfOneDelivery(redis, "hourglass.listener.virtual-threads=true"))
                .startsWith("virtual ");
        assertThat(threadOfOneDelivery(redis, "spring.threads.virtual.enabled=true"))
                .startsWith("virtual ");
        assertThat(threadOfOneDelivery(
                        redis, "spring.threads.virtual.enabled=true", "hourglass.listener.virtual-threads=false"))
                .startsWith("platform ");
        assertThat(threadOfOneDelivery(redis)).startsWith("platform hourglass-worker-threads-");
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void beforeJava21AskingForVirtualThreadsFailsTheStartUpWhileSpringBootsSettingIsLeftToIt(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(ThreadListener.class)
                .withPropertyValues("hourglass.listener.virtual-threads=true")
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("hourglass.listener.virtual-threads: this JVM (Java")
                        .contains("Java 21 or later")));
        assertThat(threadOfOneDelivery(redis, "spring.threads.virtual.enabled=true"))
                .startsWith("platform ");
    }

    /** @return "virtual " or "platform " and the name of the thread that ran one delivery with these properties */
    private String threadOfOneDelivery(HourglassFactory redis, String... properties) {
        String[] thread = new String[1];
        runner(redis.redisUri(), redis.namespace())
                .withBean(ThreadListener.class)
                .withPropertyValues(properties)
                .run(context -> {
                    context.getBean(HourglassTemplate.class)
                            .schedule("threads", "t-" + threadJobs.incrementAndGet(), "x", Duration.ZERO);
                    thread[0] = context.getBean(ThreadListener.class).threads.poll(10, TimeUnit.SECONDS);
                });
        assertThat(thread[0]).as("a delivery with %s", List.of(properties)).isNotNull();
        return thread[0];
    }

    @Test
    void aHandlerThatOutlastsItsTimeoutIsInterruptedAndRetried(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(HangingListener.class)
                .withPropertyValues("hourglass.listener.handler-timeout=200ms", "hourglass.default-backoff=10m")
                .run(context -> {
                    Hourglass hourglass = context.getBean(Hourglass.class);
                    context.getBean(HourglassTemplate.class).schedule("hanging", "h-1", "work", Duration.ZERO);
                    JobInfo retried = await().atMost(WAIT)
                            .until(
                                    () -> hourglass.get("hanging", "h-1").orElseThrow(),
                                    job -> job.state() == JobState.SCHEDULED && job.attempt() == 1);
                    assertThat(retried.lastError()).isNotBlank();
                    assertThat(context.getBean(HangingListener.class).interrupted)
                            .isTrue();
                });
    }

    @Test
    void aThrowingListenerIsRetriedOnItsBackoffThenDeadLettered(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(FailingListener.class)
                .withPropertyValues("hourglass.default-max-attempts=3", "hourglass.default-backoff=50ms")
                .run(context -> {
                    Hourglass hourglass = context.getBean(Hourglass.class);
                    context.getBean(HourglassTemplate.class).schedule("payment", "p-1", "pay", Duration.ZERO);
                    JobInfo dead = await().atMost(WAIT)
                            .until(
                                    () -> hourglass.get("payment", "p-1").orElseThrow(),
                                    job -> job.state() == JobState.DEAD);
                    assertThat(dead.attempt()).isEqualTo(3);
                    assertThat(dead.lastError()).contains("payment service down");
                    assertThat(context.getBean(FailingListener.class).attempts.get())
                            .isEqualTo(3);
                });
    }

    @Test
    void aThrowingListenerLogsAWarnLineNamingTheTopicAndTheJobWithoutTheStackTrace(HourglassFactory redis) {
        try (FailureLines lines = new FailureLines()) {
            runner(redis.redisUri(), redis.namespace())
                    .withBean(FailingListener.class)
                    .withPropertyValues("hourglass.default-max-attempts=2", "hourglass.default-backoff=50ms")
                    .run(context -> {
                        scheduleAndAwaitDead(context.getBean(HourglassTemplate.class), "payment", "p-warn");
                        List<ILoggingEvent> logged = await().atMost(WAIT)
                                .until(() -> lines.of("payment", "p-warn"), events -> events.size() >= 2);
                        ILoggingEvent retried = logged.get(0);
                        assertThat(retried.getLevel()).isEqualTo(Level.WARN);
                        assertThat(retried.getFormattedMessage())
                                .contains("topic payment: job p-warn failed on attempt 1/2")
                                .contains("payment service down");
                        assertThat(retried.getThrowableProxy()).isNull();
                        assertThat(logged.get(1).getFormattedMessage()).contains("dead");
                    });
        }
    }

    @Test
    void theFailureLogLevelPropertySetsTheLevelOfTheLine(HourglassFactory redis) {
        try (FailureLines lines = new FailureLines()) {
            runner(redis.redisUri(), redis.namespace())
                    .withBean(FailingListener.class)
                    .withPropertyValues(
                            "hourglass.default-max-attempts=2",
                            "hourglass.default-backoff=50ms",
                            "hourglass.listener.failure-log-level=error")
                    .run(context -> {
                        scheduleAndAwaitDead(context.getBean(HourglassTemplate.class), "payment", "p-error");
                        List<ILoggingEvent> logged = await().atMost(WAIT)
                                .until(() -> lines.of("payment", "p-error"), events -> events.size() >= 2);
                        assertThat(logged)
                                .extracting(ILoggingEvent::getLevel)
                                .containsExactly(Level.ERROR, Level.ERROR);
                    });
        }
    }

    @Test
    void withTheFailureLogLevelOffNothingIsLogged(HourglassFactory redis) {
        try (FailureLines lines = new FailureLines()) {
            runner(redis.redisUri(), redis.namespace())
                    .withBean(FailingListener.class)
                    .withPropertyValues(
                            "hourglass.default-max-attempts=2",
                            "hourglass.default-backoff=50ms",
                            "hourglass.listener.failure-log-level=off")
                    .run(context -> {
                        scheduleAndAwaitDead(context.getBean(HourglassTemplate.class), "payment", "p-off");
                        assertThat(context.getBean(FailingListener.class)
                                        .attempts
                                        .get())
                                .isEqualTo(2);
                        // A failure's line is written before its nack reaches Redis: none came.
                        assertThat(lines.of("payment", "p-off")).isEmpty();
                    });
        }
    }

    @Test
    void theStackTraceSwitchAddsTheTraceToTheLine(HourglassFactory redis) {
        try (FailureLines lines = new FailureLines()) {
            runner(redis.redisUri(), redis.namespace())
                    .withBean(FailingListener.class)
                    .withPropertyValues(
                            "hourglass.default-max-attempts=2",
                            "hourglass.default-backoff=50ms",
                            "hourglass.listener.log-stack-traces=true")
                    .run(context -> {
                        scheduleAndAwaitDead(context.getBean(HourglassTemplate.class), "payment", "p-trace");
                        List<ILoggingEvent> logged = await().atMost(WAIT)
                                .until(() -> lines.of("payment", "p-trace"), events -> events.size() >= 2);
                        assertThat(logged).allSatisfy(event -> {
                            assertThat(event.getThrowableProxy()).isNotNull();
                            assertThat(event.getThrowableProxy().getMessage()).isEqualTo("payment service down");
                            assertThat(event.getThrowableProxy().getStackTraceElementProxyArray())
                                    .isNotEmpty();
                        });
                    });
        }
    }

    @Test
    void theFailureLogPropertiesAreInEveryListenersOptions(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(OptionListeners.class)
                .withPropertyValues(
                        "hourglass.listener.failure-log-level=info", "hourglass.listener.log-stack-traces=true")
                .run(context -> assertThat(context.getBean(HourglassListenerContainer.class)
                                .listeners())
                        .hasSize(2)
                        .allSatisfy(status -> {
                            assertThat(status.options().failureLogLevel()).isEqualTo(System.Logger.Level.INFO);
                            assertThat(status.options().logStackTraces()).isTrue();
                        }));
    }

    @Test
    void aPayloadOfTheWrongShapeIsDeadLetteredAfterOneAttemptWithTheMappingError(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(OrderTimeouts.class)
                .run(context -> {
                    Hourglass hourglass = context.getBean(Hourglass.class);
                    // A JSON array where the listener takes an OrderTimeout object.
                    context.getBean(HourglassTemplate.class)
                            .schedule("order-timeout", "o-array", List.of(1, 2), Duration.ZERO);
                    JobInfo dead = await().atMost(WAIT)
                            .until(
                                    () -> hourglass
                                            .get("order-timeout", "o-array")
                                            .orElseThrow(),
                                    job -> job.state() == JobState.DEAD);
                    assertThat(dead.attempt()).isEqualTo(1);
                    assertThat(dead.maxAttempts()).isGreaterThan(1);
                    assertThat(dead.lastError())
                            .contains(NonRetryableException.class.getName())
                            .contains("cannot read JSON as " + OrderTimeout.class.getName());
                    assertThat(context.getBean(OrderTimeouts.class).received).isEmpty();
                });
    }

    @Test
    void aListenerThatThrowsNonRetryableExceptionIsDeadLetteredAfterOneAttempt(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(RefusingListener.class)
                .run(context -> {
                    Hourglass hourglass = context.getBean(Hourglass.class);
                    context.getBean(HourglassTemplate.class).schedule("refund", "r-1", "refund", Duration.ZERO);
                    JobInfo dead = await().atMost(WAIT)
                            .until(
                                    () -> hourglass.get("refund", "r-1").orElseThrow(),
                                    job -> job.state() == JobState.DEAD);
                    assertThat(dead.attempt()).isEqualTo(1);
                    assertThat(dead.maxAttempts()).isGreaterThan(1);
                    assertThat(dead.lastError()).contains("order 9 was deleted");
                    assertThat(context.getBean(RefusingListener.class).attempts.get())
                            .isEqualTo(1);
                });
    }

    private static void scheduleAndAwaitDead(HourglassTemplate template, String topic, String id) {
        template.schedule(topic, id, "pay", Duration.ZERO);
        await().atMost(WAIT)
                .until(() -> template.hourglass().get(topic, id).orElseThrow(), job -> job.state() == JobState.DEAD);
    }

    @Test
    void theListenersMaxAttemptsBackoffAndLeaseAreTheDefaultsOfItsTopicsJobsScheduledThroughTheTemplate(
            HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(RetryingListener.class)
                .withPropertyValues("orders.attempts=2", "hourglass.default-max-attempts=9")
                .run(context -> {
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    Hourglass hourglass = context.getBean(Hourglass.class);
                    template.schedule("charge", "later", "x", Duration.ofHours(1));
                    JobInfo scheduled = hourglass.get("charge", "later").orElseThrow();
                    assertThat(scheduled.maxAttempts()).isEqualTo(2);
                    assertThat(scheduled.backoff()).isEqualTo(Backoff.fixed(Duration.ofMillis(50)));
                    assertThat(scheduled.lease()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(scheduled.priority()).isEqualTo(3);
                    template.schedule("charge", "x", job -> job.id("own")
                            .delay(Duration.ofHours(1))
                            .maxAttempts(4)
                            .priority(-1));
                    assertThat(hourglass.get("charge", "own").orElseThrow())
                            .as("the caller's options win")
                            .extracting(JobInfo::maxAttempts, JobInfo::priority)
                            .containsExactly(4, -1);
                    template.schedule("other", "o-1", "x", Duration.ofHours(1));
                    assertThat(hourglass.get("other", "o-1").orElseThrow().maxAttempts())
                            .isEqualTo(9);

                    template.schedule("charge", "now", "x", Duration.ZERO);
                    JobInfo dead = await().atMost(WAIT)
                            .until(
                                    () -> hourglass.get("charge", "now").orElseThrow(),
                                    job -> job.state() == JobState.DEAD);
                    assertThat(dead.attempt()).isEqualTo(2);
                });
    }

    static Stream<Arguments> wrongListeners() {
        return Stream.of(
                Arguments.of(TwoPayloads.class, "more than one payload parameter"),
                Arguments.of(TwoJobs.class, "more than one io.hourglass.Job parameter"),
                Arguments.of(NoTopic.class, "topic is not set"),
                Arguments.of(BadTopic.class, "topic"),
                Arguments.of(NotANumber.class, "concurrency: 'many' is not a whole number"),
                Arguments.of(ZeroConcurrency.class, "concurrency: must be between 1 and 10000"),
                Arguments.of(NotADuration.class, "handlerTimeout: 'soon' is not a duration"),
                Arguments.of(ZeroAttempts.class, "maxAttempts: "),
                Arguments.of(NotABackoff.class, "backoff: 'sometimes' is not a backoff"),
                Arguments.of(NotALease.class, "lease: 'long' is not a duration"),
                Arguments.of(PriorityOutOfRange.class, "priority: must be -5 to 5"));
    }

    @ParameterizedTest
    @MethodSource("wrongListeners")
    void aWrongListenerMethodFailsTheStartUpNamingTheBeanAndTheMethod(
            Class<?> listener, String problem, HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean("wrongListener", listener)
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("Invalid @HourglassListener method " + listener.getName() + ".onJob(")
                        .contains("of bean 'wrongListener'")
                        .contains(problem)));
    }

    static Stream<Arguments> listenersThatNeedACodec() {
        return Stream.of(
                Arguments.of(
                        OrderTimeouts.class, "OrderTimeouts.close(OrderTimeout, Job)", "can read its payload type"),
                Arguments.of(ReturnsAnObject.class, "ReturnsAnObject.onJob(String)", "can write its return type"));
    }

    @ParameterizedTest
    @MethodSource("listenersThatNeedACodec")
    void aPayloadOrReturnTypeNoCodecHandlesFailsTheStartUp(
            Class<?> listener, String method, String problem, HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withClassLoader(new FilteredClassLoader("com.fasterxml.jackson.databind", "tools.jackson.databind"))
                .withBean("listener", listener)
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains(method + " of bean 'listener'")
                        .contains("no HourglassPayloadCodec " + problem)));
    }

    @Test
    void aListenerMethodsReturnValueIsTheJobsResult(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(ResultListeners.class)
                .withPropertyValues(
                        "hourglass.completed-retention=1h", "spring.jackson.property-naming-strategy=SNAKE_CASE")
                .run(context -> {
                    HourglassTemplate template = context.getBean(HourglassTemplate.class);
                    Hourglass hourglass = template.hourglass();
                    template.schedule("text-result", "t", "ok", Duration.ZERO);
                    template.schedule("bytes-result", "b", "four", Duration.ZERO);
                    template.schedule("json-result", "j", new OrderTimeout(42, "unpaid"), Duration.ZERO);
                    template.schedule("null-result", "n", "ok", Duration.ZERO);
                    template.schedule("big-result", "x", "ok", Duration.ZERO);
                    Function<String, byte[]> resultOf = topic -> await().atMost(WAIT)
                            .until(
                                    () -> hourglass
                                            .get(topic, topic.substring(0, 1))
                                            .orElseThrow(),
                                    job -> job.state() == JobState.COMPLETED)
                            .result();
                    assertThat(new String(resultOf.apply("text-result"), StandardCharsets.UTF_8))
                            .isEqualTo("done é ok");
                    assertThat(resultOf.apply("bytes-result")).containsExactly(0xff, 0, 4);
                    // Written by the application's mapper, whose naming strategy applies.
                    assertThat(new String(resultOf.apply("json-result"), StandardCharsets.UTF_8))
                            .isEqualTo("{\"order_id\":42,\"reason\":\"closed\"}");
                    assertThat(resultOf.apply("null-result")).isNull();
                    JobInfo big = await().atMost(WAIT)
                            .until(
                                    () -> hourglass.get("big-result", "x").orElseThrow(),
                                    job -> job.state() == JobState.DEAD);
                    assertThat(big.lastError()).contains("result: must be at most " + Hourglass.MAX_RESULT_BYTES);
                });
    }

    @Test
    void withAutoStartupFalseWorkersWaitForAnExplicitStart(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean("orderTimeouts", OrderTimeouts.class)
                .withPropertyValues("hourglass.listener.auto-startup=false")
                .run(context -> {
                    context.getBean(HourglassTemplate.class)
                            .schedule("order-timeout", "o-1", new OrderTimeout(1, "x"), Duration.ZERO);
                    OrderTimeouts listener = context.getBean(OrderTimeouts.class);
                    assertThat(listener.received.poll(500, TimeUnit.MILLISECONDS))
                            .isNull();
                    assertThat(context.getBean(HourglassListenerContainer.class).isRunning())
                            .isFalse();
                    context.start();
                    assertThat(listener.received.poll(10, TimeUnit.SECONDS)).isNotNull();
                });
    }

    @Test
    void stoppingTheContextLetsRunningHandlersFinish(HourglassFactory redis) {
        Hourglass observer = redis.create();
        runner(redis.redisUri(), redis.namespace()).withBean(SlowListener.class).run(context -> {
            SlowListener listener = context.getBean(SlowListener.class);
            context.getBean(HourglassTemplate.class).schedule("slow", "s-1", "work", Duration.ZERO);
            assertThat(listener.started.await(10, TimeUnit.SECONDS)).isTrue();
            context.close();
            assertThat(listener.finished).isTrue();
            assertThat(observer.get("slow", "s-1")).isEmpty();
        });
    }

    @Test
    void handlersThatOutlastTheShutdownGraceHandTheirJobBackWithoutChargingAnAttempt(HourglassFactory redis) {
        Hourglass observer = redis.create();
        runner(redis.redisUri(), redis.namespace())
                .withBean(HangingListener.class)
                .withPropertyValues("hourglass.listener.shutdown-grace=100ms")
                .run(context -> {
                    context.getBean(HourglassTemplate.class).schedule("hanging", "h-1", "work", Duration.ZERO);
                    assertThat(context.getBean(HangingListener.class).started.await(10, TimeUnit.SECONDS))
                            .isTrue();
                    context.close();
                    JobInfo job = observer.get("hanging", "h-1").orElseThrow();
                    assertThat(job.state()).isEqualTo(JobState.READY);
                    assertThat(job.attempt()).isZero();
                });
    }

    @Test
    void methodsOfProxiedBeansAreInvokedThroughTheProxy(HourglassFactory redis) {
        AtomicInteger intercepted = new AtomicInteger();
        runner(redis.redisUri(), redis.namespace())
                .withBean("proxied", ProxiedListener.class)
                .withBean("counting", MethodInterceptor.class, () -> invocation -> {
                    intercepted.incrementAndGet();
                    return invocation.proceed();
                })
                .withBean("autoProxy", BeanNameAutoProxyCreator.class, () -> {
                    BeanNameAutoProxyCreator proxies = new BeanNameAutoProxyCreator();
                    proxies.setBeanNames("proxied");
                    proxies.setInterceptorNames("counting");
                    proxies.setProxyTargetClass(true);
                    return proxies;
                })
                .run(context -> {
                    assertThat(AopUtils.isAopProxy(context.getBean("proxied"))).isTrue();
                    context.getBean(HourglassTemplate.class).schedule("proxied", "p-1", "x", Duration.ZERO);
                    assertThat(context.getBean(ProxiedListener.class).next()).isEqualTo("x");
                    assertThat(intercepted.get()).isPositive();
                });
    }

    @Test
    void listenerBeansStayEagerUnderLazyInitialization(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withInitializer(context ->
                        context.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor()))
                .withBean("orderTimeouts", OrderTimeouts.class)
                .run(context -> {
                    assertThat(context.getBean(HourglassListenerContainer.class).listeners())
                            .singleElement()
                            .satisfies(status -> assertThat(status.running()).isTrue());
                    context.getBean(HourglassTemplate.class)
                            .schedule("order-timeout", "o-1", new OrderTimeout(1, "x"), Duration.ZERO);
                    assertThat(context.getBean(OrderTimeouts.class).received.poll(10, TimeUnit.SECONDS))
                            .isNotNull();
                });
    }

    /** What a listener saw of one delivery. */
    record Delivery(OrderTimeout payload, String id, int attempt) {}

    /** The typical listener: a typed payload and the job's metadata. */
    public static class OrderTimeouts {
        final BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();

        @HourglassListener(topic = "order-timeout", concurrency = "2")
        void close(OrderTimeout timeout, Job job) {
            received.add(new Delivery(timeout, job.id(), job.attempt()));
        }
    }

    /** A listener the test proxies. */
    public static class ProxiedListener {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();

        /** @param payload the payload */
        @HourglassListener(topic = "proxied")
        public void onJob(String payload) {
            received.add(payload);
        }

        /**
         * @return the next payload received, waiting up to 10 s
         * @throws InterruptedException when interrupted
         */
        public String next() throws InterruptedException {
            return received.poll(10, TimeUnit.SECONDS);
        }
    }

    /** Raw payloads, the job alone, the job first. */
    public static class RawListeners {
        final List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

        private void record(String what) {
            seen.add(what);
        }

        @HourglassListener("text")
        void text(String payload) {
            record("text:" + payload);
        }

        @HourglassListener(topic = "bytes")
        void bytes(byte[] payload) {
            record("bytes:" + payload.length);
        }

        @HourglassListener(topic = "job-only")
        void jobOnly(Job job) {
            record("job-only:" + job.id() + (job.payloadAsString().equals("ignored") ? "" : "?"));
        }

        @HourglassListener(topic = "job-first")
        void jobFirst(Job job, OrderTimeout payload) {
            record("job-first:" + job.id() + ":" + payload.orderId());
        }
    }

    /** A generic payload type. */
    public static class BatchListener {
        final BlockingQueue<List<OrderTimeout>> received = new LinkedBlockingQueue<>();

        @HourglassListener(topic = "batch")
        void onBatch(List<OrderTimeout> batch) {
            received.add(batch);
        }
    }

    /** Placeholders, and a method that takes the defaults. */
    public static class PlaceholderListeners {
        @HourglassListener(topic = "${app.topic}", concurrency = "${app.concurrency}")
        void poll(String payload) {}

        @HourglassListener(topic = "defaults")
        void defaults(String payload) {}
    }

    /** One method with every attribute, one with none. */
    public static class OptionListeners {
        @HourglassListener(
                topic = "explicit",
                concurrency = "2",
                maxBatch = "1",
                handlerTimeout = "500ms",
                shutdownGrace = "PT1S")
        void explicit(String payload) {}

        @HourglassListener(topic = "defaults")
        void defaults(String payload) {}
    }

    /** Always fails. */
    public static class FailingListener {
        final AtomicInteger attempts = new AtomicInteger();

        @HourglassListener(topic = "payment")
        void pay(String payload) {
            attempts.incrementAndGet();
            throw new IllegalStateException("payment service down");
        }
    }

    /** Refuses every job for good. */
    public static class RefusingListener {
        final AtomicInteger attempts = new AtomicInteger();

        @HourglassListener(topic = "refund")
        void refund(String payload) {
            attempts.incrementAndGet();
            throw new NonRetryableException("order 9 was deleted");
        }
    }

    /**
     * Captures the lines of the failure logger ({@code io.hourglass.failures}) at INFO: below DEBUG, so that a line
     * carries a stack trace only when {@code log-stack-traces} asks for one.
     */
    private static final class FailureLines implements AutoCloseable {
        private final Logger logger = (Logger) LoggerFactory.getLogger("io.hourglass.failures");
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
        private final Level previous = logger.getLevel();

        FailureLines() {
            logger.setLevel(Level.INFO);
            appender.start();
            logger.addAppender(appender);
        }

        /** @return the lines about one job, in order */
        List<ILoggingEvent> of(String topic, String id) {
            List<ILoggingEvent> events;
            synchronized (appender) {
                events = List.copyOf(appender.list);
            }
            String prefix = "topic " + topic + ": job " + id + " ";
            return events.stream()
                    .filter(event -> event.getFormattedMessage().startsWith(prefix))
                    .toList();
        }

        @Override
        public void close() {
            logger.detachAppender(appender);
            appender.stop();
            logger.setLevel(previous);
        }
    }

    /** Records the kind and the name of the thread each delivery runs on. */
    public static class ThreadListener {
        final BlockingQueue<String> threads = new LinkedBlockingQueue<>();

        @HourglassListener(topic = "threads")
        void onJob(String payload) {
            Thread thread = Thread.currentThread();
            threads.add((HandlerThreads.isVirtual(thread) ? "virtual " : "platform ") + thread.getName());
        }
    }

    /** Takes a while. */
    public static class SlowListener {
        final CountDownLatch started = new CountDownLatch(1);
        volatile boolean finished;

        @HourglassListener(topic = "slow")
        void work(String payload) throws InterruptedException {
            started.countDown();
            Thread.sleep(400);
            finished = true;
        }
    }

    /** Never finishes on its own. */
    public static class HangingListener {
        final CountDownLatch started = new CountDownLatch(1);
        final AtomicBoolean interrupted = new AtomicBoolean();

        @HourglassListener(topic = "hanging")
        void work(String payload) {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Fails; its annotation sets the topic's job defaults. */
    public static class RetryingListener {
        @HourglassListener(
                topic = "charge",
                maxAttempts = "${orders.attempts:5}",
                backoff = "fixed:50ms",
                lease = "2m",
                priority = "3")
        void charge(String payload) {
            throw new IllegalStateException("card declined");
        }
    }

    /** Wrong: no attempt at all. */
    public static class ZeroAttempts {
        @HourglassListener(topic = "t", maxAttempts = "0")
        void onJob(String payload) {}
    }

    /** Wrong: not a backoff. */
    public static class NotABackoff {
        @HourglassListener(topic = "t", backoff = "sometimes")
        void onJob(String payload) {}
    }

    /** Wrong: not a lease. */
    public static class NotALease {
        @HourglassListener(topic = "t", lease = "long")
        void onJob(String payload) {}
    }

    /** Wrong: a priority out of range. */
    public static class PriorityOutOfRange {
        @HourglassListener(topic = "t", priority = "9")
        void onJob(String payload) {}
    }

    /** Wrong: two payloads. */
    public static class TwoPayloads {
        @HourglassListener(topic = "t")
        void onJob(String a, String b) {}
    }

    /** Wrong: two jobs. */
    public static class TwoJobs {
        @HourglassListener(topic = "t")
        void onJob(Job a, Job b) {}
    }

    /** Wrong: a return type that no codec writes, once Jackson is filtered out. */
    public static class ReturnsAnObject {
        @HourglassListener(topic = "t")
        OrderTimeout onJob(String payload) {
            return new OrderTimeout(1, payload);
        }
    }

    /** Returns results of each kind. */
    public static class ResultListeners {
        @HourglassListener(topic = "text-result")
        String text(String payload) {
            return "done é " + payload;
        }

        @HourglassListener(topic = "bytes-result")
        byte[] bytes(byte[] payload) {
            return new byte[] {(byte) 0xff, 0, (byte) payload.length};
        }

        @HourglassListener(topic = "json-result")
        OrderTimeout json(OrderTimeout timeout) {
            return new OrderTimeout(timeout.orderId(), "closed");
        }

        @HourglassListener(topic = "null-result")
        String none(String payload) {
            return null;
        }

        @HourglassListener(topic = "big-result", maxAttempts = "1")
        String big(String payload) {
            return "x".repeat(Hourglass.MAX_RESULT_BYTES + 1);
        }
    }

    /** Wrong: no topic. */
    public static class NoTopic {
        @HourglassListener(concurrency = "2")
        void onJob(String payload) {}
    }

    /** Wrong: a malformed topic. */
    public static class BadTopic {
        @HourglassListener(topic = "not a topic!")
        void onJob(String payload) {}
    }

    /** Wrong: concurrency not a number. */
    public static class NotANumber {
        @HourglassListener(topic = "t", concurrency = "many")
        void onJob(String payload) {}
    }

    /** Wrong: concurrency out of range. */
    public static class ZeroConcurrency {
        @HourglassListener(topic = "t", concurrency = "0")
        void onJob(String payload) {}
    }

    /** Wrong: not a duration. */
    public static class NotADuration {
        @HourglassListener(topic = "t", handlerTimeout = "soon")
        void onJob(String payload) {}
    }
}
