package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.TopicConfig;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A topic's rate limit and concurrency cap hold across two worker processes (separate JVMs,
 * {@link FlowControlProcessMain}) on one Redis with four shards: no process knows the others, and together they stay
 * under both limits, as the limits are enforced inside the claim on Redis's clock. The children start with the client
 * compiler only and the serial collector, which shortens their start on a small, busy machine.
 */
@RedisTest(shards = 4)
class FlowControlProcessIntegrationTests {
    static final String RATED = "rated";
    static final String CAPPED = "capped";
    private static final int PROCESSES = 2;
    private static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k");

    /** What one worker process printed: a rated job's lease deadline, or a capped job's start and end. */
    record Line(int process, String kind, long first, long second) {}

    @Test
    void theRateLimitAndTheConcurrencyCapHoldAcrossTwoWorkerProcesses(
            HourglassFactory factory, RedisServerProcess redis) throws Exception {
        Hourglass hourglass = factory.create();
        double rate = 20;
        int burst = 8;
        int cap = 4;
        hourglass.inspector().configureTopic(RATED, new TopicConfig(rate, burst, 0));
        hourglass.inspector().configureTopic(CAPPED, new TopicConfig(0, 0, cap));
        List<Line> lines = new CopyOnWriteArrayList<>();
        List<Process> workers = new ArrayList<>();
        try {
            CountDownLatch ready = new CountDownLatch(PROCESSES);
            for (int p = 0; p < PROCESSES; p++) {
                int process = p;
                workers.add(JavaProcess.start(
                        FlowControlProcessMain.class,
                        QUICK_START,
                        List.of(redis.uri(), factory.namespace(), "4"),
                        line -> {
                            String[] f = line.split(" ");
                            if (f[0].equals("READY")) {
                                ready.countDown();
                            } else if (f[0].equals("RATED")) {
                                lines.add(new Line(process, RATED, Long.parseLong(f[1]), 0));
                            } else if (f[0].equals("CAPPED")) {
                                lines.add(new Line(process, CAPPED, Long.parseLong(f[1]), Long.parseLong(f[2])));
                            }
                        }));
            }
            long started = System.nanoTime();
            assertThat(ready.await(60, TimeUnit.SECONDS))
                    .as("worker processes started")
                    .isTrue();
            long readyMs = (System.nanoTime() - started) / 1_000_000;
            int ratedJobs = 40;
            int cappedJobs = 16;
            for (int i = 0; i < Math.max(ratedJobs, cappedJobs); i++) {
                if (i < ratedJobs) {
                    hourglass.schedule(JobRequest.builder(RATED).id("r" + i).build());
                }
                if (i < cappedJobs) {
                    hourglass.schedule(JobRequest.builder(CAPPED).id("c" + i).build());
                }
            }
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> count(lines, RATED) >= ratedJobs && count(lines, CAPPED) >= cappedJobs);
            System.out.printf(
                    "worker processes ready in %d ms, both topics drained %d ms later%n",
                    readyMs, (System.nanoTime() - started) / 1_000_000 - readyMs);
            Thread.sleep(200);
            assertThat(count(lines, RATED)).as("each rated job once").isEqualTo(ratedJobs);
            assertThat(count(lines, CAPPED)).as("each capped job once").isEqualTo(cappedJobs);
        } finally {
            for (Process p : workers) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }

        // Every job has the same lease, so its deadline is when Redis leased it plus a constant.
        List<Long> leased = new ArrayList<>();
        for (Line l : lines) {
            if (l.kind().equals(RATED)) {
                leased.add(l.first());
            }
        }
        FlowControlSuite.assertWithinTheRateLimit(leased, rate, burst);

        assertThat(mostAtOnce(lines))
                .as("capped jobs running at once in all processes")
                .isBetween(1, cap);
        Map<Integer, Integer> perProcess = new ConcurrentHashMap<>();
        lines.forEach(l -> perProcess.merge(l.process(), 1, Integer::sum));
        assertThat(perProcess).as("jobs run per process").hasSizeGreaterThanOrEqualTo(2);
    }

    private static long count(List<Line> lines, String kind) {
        return lines.stream().filter(l -> l.kind().equals(kind)).count();
    }

    /**
     * The most capped handlers running at once, from their start and end (one clock: the machine's); an end sorts
     * before a start in the same millisecond, since a place frees only once its handler returned and was acked.
     */
    private static int mostAtOnce(List<Line> lines) {
        List<long[]> events = new ArrayList<>();
        for (Line l : lines) {
            if (l.kind().equals(CAPPED)) {
                events.add(new long[] {l.first(), 1});
                events.add(new long[] {l.second(), -1});
            }
        }
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int running = 0;
        int most = 0;
        for (long[] e : events) {
            running += (int) e[1];
            most = Math.max(most, running);
        }
        return most;
    }
}
