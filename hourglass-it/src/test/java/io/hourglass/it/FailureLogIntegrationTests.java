package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.hourglass.Backoff;
import io.hourglass.CallbackOptions;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.WorkerOptions;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Failed attempts and dead letters are logged (logger {@code io.hourglass.failures}), rate-limited per topic, with the
 * level and the stack traces the options ask for.
 */
@RedisTest
class FailureLogIntegrationTests {
    private static final Duration SWEEP = Duration.ofMillis(200);

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger failures = (Logger) LoggerFactory.getLogger("io.hourglass.failures");

    @BeforeEach
    void captureTheLog() {
        log.start();
        failures.addAppender(log);
    }

    @AfterEach
    void stopCapturing() {
        failures.detachAppender(log);
        failures.setLevel(null);
    }

    private List<ILoggingEvent> lines() {
        return List.copyOf(log.list);
    }

    @Test
    void aFailedAttemptIsLoggedWithItsRetryAndTheLastOneAsADeadLetter(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP));
        hourglass.schedule(JobRequest.builder("billing")
                .id("invoice-7")
                .maxAttempts(2)
                .backoff(Backoff.fixed(Duration.ofMillis(300)))
                .build());
        Instant beforeFirst = Instant.now();
        hourglass.subscribe("billing", job -> {
            throw new IllegalStateException("card declined on attempt " + job.attempt());
        });

        await().atMost(Duration.ofSeconds(5)).until(() -> lines().size() >= 2);
        ILoggingEvent retried = lines().get(0);
        assertThat(retried.getLevel()).isEqualTo(Level.WARN);
        assertThat(retried.getFormattedMessage())
                .contains("topic billing", "job invoice-7", "attempt 1/2", "next attempt due at")
                .contains("java.lang.IllegalStateException: card declined on attempt 1");
        Matcher due = Pattern.compile("next attempt due at (\\S+):").matcher(retried.getFormattedMessage());
        assertThat(due.find()).isTrue();
        assertThat(Instant.parse(due.group(1)))
                .isBetween(beforeFirst.plusMillis(200), Instant.now().plusMillis(1000));
        assertThat(retried.getThrowableProxy()).as("no stack trace by default").isNull();

        ILoggingEvent dead = lines().get(1);
        assertThat(dead.getLevel()).isEqualTo(Level.WARN);
        assertThat(dead.getFormattedMessage())
                .contains("topic billing", "job invoice-7", "last attempt, 2/2", "dead letters")
                .contains("java.lang.IllegalStateException: card declined on attempt 2");
        await().atMost(Duration.ofSeconds(2))
                .until(() -> hourglass.get("billing", "invoice-7").orElseThrow().state() == JobState.DEAD);
    }

    @Test
    void theLevelAndTheStackTracesAreSettable(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP));
        hourglass.subscribe(
                "quiet",
                job -> {
                    throw new IllegalStateException("boom");
                },
                WorkerOptions.builder()
                        .failureLogLevel(System.Logger.Level.INFO)
                        .logStackTraces(true)
                        .build());
        hourglass.schedule(JobRequest.builder("quiet")
                .id("q")
                .maxAttempts(2)
                .backoff(Backoff.fixed(Duration.ZERO))
                .build());
        await().atMost(Duration.ofSeconds(5)).until(() -> lines().size() >= 2);
        assertThat(lines().get(0).getLevel()).isEqualTo(Level.INFO);
        assertThat(lines().get(0).getThrowableProxy().getMessage()).isEqualTo("boom");
        // The dead letter is never below WARN.
        assertThat(lines().get(1).getLevel()).isEqualTo(Level.WARN);
        assertThat(lines().get(1).getThrowableProxy()).isNotNull();

        Hourglass silent = factory.create(b -> b.sweepInterval(SWEEP));
        silent.subscribe(
                "silent",
                job -> {
                    throw new IllegalStateException("boom");
                },
                WorkerOptions.builder().failureLogLevel(System.Logger.Level.OFF).build());
        silent.schedule(JobRequest.builder("silent").id("s").maxAttempts(1).build());
        await().atMost(Duration.ofSeconds(5))
                .until(() -> silent.get("silent", "s").orElseThrow().state() == JobState.DEAD);
        assertThat(lines()).noneMatch(e -> e.getFormattedMessage().contains("topic silent"));
    }

    @Test
    void withDebugEnabledTheStackTraceIsAdded(HourglassFactory factory) {
        failures.setLevel(Level.DEBUG);
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP));
        hourglass.subscribe("debug", job -> {
            throw new IllegalStateException("traced");
        });
        hourglass.schedule(JobRequest.builder("debug").id("d").maxAttempts(1).build());
        await().atMost(Duration.ofSeconds(5)).until(() -> !lines().isEmpty());
        assertThat(lines().get(0).getThrowableProxy().getMessage()).isEqualTo("traced");
    }

    @Test
    void aFailingTopicLogsTenLinesASecondAndThenOneSummary(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP));
        int jobs = 200;
        for (int i = 0; i < jobs; i++) {
            hourglass.schedule(
                    JobRequest.builder("flood").id("f" + i).maxAttempts(1).build());
        }
        hourglass.schedule(JobRequest.builder("calm").id("c").maxAttempts(1).build());
        hourglass.subscribe(
                "flood",
                job -> {
                    throw new IllegalStateException("down");
                },
                WorkerOptions.builder().concurrency(32).build());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> hourglass.stats("flood").dead() == jobs);
        // Another topic has its own budget.
        hourglass.subscribe("calm", job -> {
            throw new IllegalStateException("once");
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> lines().stream()
                .anyMatch(e -> e.getFormattedMessage().contains("topic calm")));

        Pattern summary = Pattern.compile("topic flood: (\\d+) more failures in the last (\\d+) s not logged");
        await().atMost(Duration.ofSeconds(15)).until(() -> lines().stream()
                .anyMatch(e -> summary.matcher(e.getFormattedMessage()).find()));
        List<ILoggingEvent> flood = lines().stream()
                .filter(e -> e.getFormattedMessage().startsWith("topic flood: job"))
                .toList();
        long summarised = lines().stream()
                .map(e -> summary.matcher(e.getFormattedMessage()))
                .filter(Matcher::find)
                .mapToLong(m -> Long.parseLong(m.group(1)))
                .sum();
        // Ten a second: the 200 failures took a few seconds at most here.
        assertThat(flood.size()).isBetween(10, 60);
        assertThat(flood.size() + summarised).isEqualTo(jobs);
    }

    @Test
    void aPullWorkersNackOnTheLastAttemptAndAnExplicitDeadLetterAreLogged(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        hourglass.schedule(JobRequest.builder("pull").id("p1").maxAttempts(1).build());
        hourglass.schedule(JobRequest.builder("pull").id("p2").maxAttempts(5).build());
        List<Delivery> got = hourglass.reserve("pull", 2, null);
        assertThat(got).hasSize(2);
        for (Delivery d : got) {
            if (d.id().equals("p1")) {
                assertThat(hourglass.nack("pull", "p1", d.receipt(), "parse error at line 3", null))
                        .isEqualTo(JobState.DEAD);
            } else {
                assertThat(hourglass.deadLetter("pull", "p2", d.receipt(), "unknown schema version"))
                        .isEqualTo(JobState.DEAD);
            }
        }
        assertThat(hourglass.get("pull", "p2").orElseThrow().lastError()).isEqualTo("unknown schema version");
        assertThat(lines()).hasSize(2).allMatch(e -> e.getLevel() == Level.WARN);
        assertThat(lines().stream().map(ILoggingEvent::getFormattedMessage))
                .anyMatch(
                        m -> m.contains("job p1") && m.contains("dead letters") && m.contains("parse error at line 3"))
                .anyMatch(m -> m.contains("job p2") && m.contains("dead letters") && m.contains("unknown schema"));
    }

    @Test
    void aFailedCallbackIsLogged(HourglassFactory factory) {
        // The default allow-list refuses loopback; this test's dead receiver is on this machine.
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP).callbackAllowList(List.of("127.0.0.1")));
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().timeout(Duration.ofSeconds(1)).build());
        // Nothing listens on port 9 (discard) here: the connection is refused.
        hourglass.schedule(JobRequest.builder("hooks")
                .id("h1")
                .maxAttempts(1)
                .callbackUrl(URI.create("http://127.0.0.1:9/hook"))
                .build());
        await().atMost(Duration.ofSeconds(10)).until(() -> !lines().isEmpty());
        assertThat(lines().get(0).getFormattedMessage()).contains("topic hooks", "job h1", "dead letters");
    }

    @Test
    void aHandlerThatHangsPastItsLeaseOnTheLastAttemptIsLoggedWhenAClaimReapsIt(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP));
        CountDownLatch release = new CountDownLatch(1);
        try {
            hourglass.subscribe("hangs", job -> {
                release.await();
            });
            hourglass.schedule(JobRequest.builder("hangs")
                    .id("stuck-1")
                    .maxAttempts(1)
                    .lease(Duration.ofMillis(300))
                    .build());
            // The worker's sweep claims the shard again and reaps the expired lease inside Redis.
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> hourglass.get("hangs", "stuck-1").orElseThrow().state() == JobState.DEAD);
            await().atMost(Duration.ofSeconds(2)).until(() -> !lines().isEmpty());
            assertThat(lines()).hasSize(1);
            assertThat(lines().get(0).getLevel()).isEqualTo(Level.WARN);
            assertThat(lines().get(0).getFormattedMessage())
                    .contains("topic hangs", "job stuck-1", "dead letters", "lease expired on attempt 1");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aPullReservationNeverAckedOnTheLastAttemptIsLoggedByTheReservationThatReapsIt(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        hourglass.schedule(
                JobRequest.builder("pulled").id("lost-1").maxAttempts(1).build());
        hourglass.schedule(
                JobRequest.builder("pulled").id("lost-2").maxAttempts(2).build());
        assertThat(hourglass.reserve("pulled", 2, Duration.ofMillis(100))).hasSize(2);
        await().pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> {
            // Each reservation claims every shard while it finds nothing: the one after the lease reaps both.
            hourglass.reserve("pulled", 1, Duration.ofSeconds(30));
            return hourglass.get("pulled", "lost-1").orElseThrow().state() == JobState.DEAD;
        });
        assertThat(lines()).hasSize(1);
        assertThat(lines().get(0).getLevel()).isEqualTo(Level.WARN);
        assertThat(lines().get(0).getFormattedMessage())
                .contains("topic pulled", "job lost-1", "dead letters", "lease expired on attempt 1");
        // The job with an attempt left goes back to READY: a retry, not a dead letter, and no failure line of its own.
        assertThat(hourglass.get("pulled", "lost-2").orElseThrow().state()).isNotEqualTo(JobState.DEAD);
    }
}
