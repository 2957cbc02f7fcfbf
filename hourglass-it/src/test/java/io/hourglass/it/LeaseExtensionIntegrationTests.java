package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import io.hourglass.Backoff;
import io.hourglass.CallbackOptions;
import io.hourglass.Hourglass;
import io.hourglass.Job;
import io.hourglass.JobEvents;
import io.hourglass.JobRequest;
import io.hourglass.WorkerOptions;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A delivery that outlives its lease keeps it: callback requests always, in-process handlers with
 * {@link WorkerOptions.Builder#autoExtendLease}. Without it the job would be redelivered while the first delivery still
 * runs, and its ack refused as stale.
 */
@RedisTest(shards = 2)
class LeaseExtensionIntegrationTests {
    private static final Duration SWEEP = Duration.ofMillis(200);
    private static final Duration LEASE = Duration.ofMillis(2000);

    private HttpServer receiver;
    private ExecutorService receiverThreads;
    private final List<String> received = new CopyOnWriteArrayList<>();
    /** How long the receiver takes to answer (ms). */
    private volatile long holdMs = 5000;

    @BeforeEach
    void startASlowReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // Requests in parallel, so that a second delivery would arrive while the first is still being answered.
        receiverThreads = Executors.newCachedThreadPool();
        receiver.setExecutor(receiverThreads);
        receiver.createContext("/slow", exchange -> {
            received.add(exchange.getRequestHeaders().getFirst("Hourglass-Attempt"));
            exchange.getRequestBody().readAllBytes();
            try {
                Thread.sleep(holdMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
        receiverThreads.shutdownNow();
    }

    @Test
    void aCallbackReceiverSlowerThanTheLeaseGetsTheJobOnceAndItIsAcked(HourglassFactory factory) {
        // The receiver listens on 127.0.0.1, which callbacks may reach only when allowed.
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP).callbackAllowList(List.of("127.0.0.1")));
        hourglass.startCallbackDelivery(
                CallbackOptions.builder().timeout(Duration.ofSeconds(10)).build());
        hourglass.schedule(JobRequest.builder("hooks")
                .id("slow-1")
                .lease(LEASE)
                .maxAttempts(10)
                .callbackUrl(
                        URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/slow"))
                .build());

        await().atMost(Duration.ofSeconds(10))
                .until(() -> hourglass.get("hooks", "slow-1").isEmpty());
        // Two leases more: a lost lease would have been reaped and the job posted again by now.
        Pause.millis(2 * LEASE.toMillis());
        assertThat(received).containsExactly("1");
        assertThat(hourglass.get("hooks", "slow-1")).isEmpty();
        assertThat(hourglass.stats("hooks").dead()).isZero();
    }

    @Test
    void aCallbackKeepsItsLeaseWhenItsProcessStallsRightAfterSendingIt(
            HourglassFactory factory, RedisServerProcess redis) throws Exception {
        // The stall a JVM just started or resumed goes through on a crowded machine: here a SIGSTOP of the delivering
        // process longer than the job's lease, right after its request went out.
        holdMs = 3000;
        CountDownLatch ready = new CountDownLatch(1);
        Process delivery = JavaProcess.start(
                CallbackProcessMain.class,
                List.of(redis.uri(), factory.namespace(), Long.toString(SWEEP.toMillis())),
                line -> {
                    if (line.equals("READY")) {
                        ready.countDown();
                    }
                });
        try {
            assertThat(ready.await(60, TimeUnit.SECONDS))
                    .as("callback process started")
                    .isTrue();
            Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP).callbackAllowList(List.of("127.0.0.1")));
            hourglass.schedule(JobRequest.builder("hooks")
                    .id("stalled")
                    .lease(Duration.ofMillis(1000))
                    .backoff(Backoff.fixed(Duration.ofMillis(100)))
                    .maxAttempts(10)
                    .callbackUrl(URI.create(
                            "http://127.0.0.1:" + receiver.getAddress().getPort() + "/slow"))
                    .build());
            await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
            JavaProcess.signal("STOP", delivery.pid());
            // A second dispatcher, which posts the job again as soon as its lease lapses and a retry is due.
            hourglass.startCallbackDelivery(
                    CallbackOptions.builder().timeout(Duration.ofSeconds(5)).build());
            Pause.millis(2000);
            JavaProcess.signal("CONT", delivery.pid());

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> hourglass.get("hooks", "stalled").isEmpty());
            Pause.millis(500);
            assertThat(received).as("attempts posted").containsExactly("1");
        } finally {
            delivery.destroy();
            if (!delivery.waitFor(10, TimeUnit.SECONDS)) {
                delivery.destroyForcibly();
            }
        }
    }

    @Test
    void anAutoExtendedLeaseHoldsWhileTheInstancesTimerThreadIsStalled(HourglassFactory factory) {
        // A JobEvents listener runs on the thread of the event; for a handler timeout that is the instance's timer
        // thread, which also ran every automatic extension before they had a thread of their own.
        Hourglass first = factory.create(b -> b.sweepInterval(SWEEP).events(new JobEvents() {
            @Override
            public void failed(Job job, Duration handlerTime, Throwable error) {
                if (job.topic().equals("stall")) {
                    Pause.millis(2500);
                }
            }
        }));
        AtomicInteger deliveries = new AtomicInteger();
        first.subscribe(
                "reports",
                job -> {
                    deliveries.incrementAndGet();
                    Thread.sleep(2000);
                },
                WorkerOptions.builder().autoExtendLease(true).build());
        first.subscribe(
                "stall",
                job -> Thread.sleep(10_000),
                WorkerOptions.builder().handlerTimeout(Duration.ofMillis(100)).build());
        first.schedule(JobRequest.builder("reports")
                .id("long")
                .lease(Duration.ofMillis(1000))
                .build());
        await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.get() == 1);
        // Another worker, which gets the job as soon as its lease lapses.
        Hourglass second = factory.create(b -> b.sweepInterval(SWEEP));
        second.subscribe("reports", job -> deliveries.incrementAndGet());
        first.schedule(JobRequest.builder("stall").id("stall").build());

        await().atMost(Duration.ofSeconds(10))
                .until(() -> first.get("reports", "long").isEmpty());
        Pause.millis(1000);
        assertThat(deliveries).hasValue(1);
    }

    @Test
    void anInProcessHandlerLongerThanItsLeaseKeepsItWithAutoExtension(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP));
        AtomicInteger deliveries = new AtomicInteger();
        hourglass.subscribe(
                "reports",
                job -> {
                    deliveries.incrementAndGet();
                    Thread.sleep(3 * LEASE.toMillis() / 2 + 2000);
                },
                WorkerOptions.builder().concurrency(4).autoExtendLease(true).build());
        hourglass.schedule(JobRequest.builder("reports").id("long").lease(LEASE).build());

        await().atMost(Duration.ofSeconds(10))
                .until(() -> hourglass.get("reports", "long").isEmpty());
        assertThat(deliveries).hasValue(1);
    }

    @Test
    void withoutAutoExtensionTheSameHandlerLosesItsLease(HourglassFactory factory) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP));
        AtomicInteger deliveries = new AtomicInteger();
        hourglass.subscribe(
                "reports",
                job -> {
                    deliveries.incrementAndGet();
                    Thread.sleep(3 * LEASE.toMillis() / 2 + 2000);
                },
                WorkerOptions.builder().concurrency(4).build());
        hourglass.schedule(JobRequest.builder("reports").id("long").lease(LEASE).build());

        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.get() >= 2);
    }

    @Test
    void extensionStopsForGoodOnceRedisRefusesTheReceipt(HourglassFactory factory) {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger runnerLog = (Logger) LoggerFactory.getLogger("io.hourglass.internal.JobRunner");
        runnerLog.addAppender(log);
        try {
            Hourglass hourglass = factory.create(b -> b.sweepInterval(SWEEP));
            AtomicInteger deliveries = new AtomicInteger();
            hourglass.subscribe(
                    "reports",
                    job -> {
                        deliveries.incrementAndGet();
                        Thread.sleep(4000);
                    },
                    WorkerOptions.builder().autoExtendLease(true).build());
            hourglass.schedule(JobRequest.builder("reports")
                    .id("cancelled")
                    .lease(Duration.ofMillis(600))
                    .build());
            await().atMost(Duration.ofSeconds(5)).until(() -> deliveries.get() == 1);
            assertThat(hourglass.cancel("reports", "cancelled")).isTrue();

            await().atMost(Duration.ofSeconds(3)).until(() -> log.list.stream()
                    .anyMatch(e -> e.getFormattedMessage().contains("no longer extended")));
            // Many leases later: one refusal, no further extension.
            Pause.millis(2000);
            assertThat(log.list.stream().filter(e -> e.getFormattedMessage().contains("no longer extended")))
                    .hasSize(1);
        } finally {
            runnerLog.detachAppender(log);
        }
    }
}
