package io.hourglass.bench.workloads;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.TopicConfig;
import io.hourglass.WorkerOptions;
import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.CommandStats;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.systems.LatenessRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * 7. Flow control (Hourglass only): how closely a topic's rate limit holds over the fixed-rate duration at 100/s and
 * 5,000/s, a backlog ready from the start, measured per second from the first delivery; and what the rate check and the
 * concurrency cap cost a burst drain when the limit never binds (a rate of 1,000,000/s, a cap of 1,000,000 jobs at
 * once, each against no limit at all, one after another in each round, starting with the next one each round), as
 * throughput and as Redis's time in scripts per job. Priorities: the same burst drain with every job at priority 1 (the
 * claims then read the lane's {@code prio} set), and the lateness of high-priority jobs that come due while a backlog
 * of low-priority ones drains, against the same jobs at the backlog's priority.
 */
public final class FlowControlWorkload implements Workload {
    private static final String TOPIC = "flow";
    private static final int[] RATES = {100, 5_000};
    private static final byte[] PAYLOAD = "x".repeat(30).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int SCHEDULES_IN_FLIGHT = 256;

    /** The limits of a burst drain: none, or one that never binds, so that only its check is measured. */
    private enum Limit {
        NONE("no limit", TopicConfig.UNLIMITED),
        RATE("rate limit 1,000,000/s (never binds)", new TopicConfig(TopicConfig.MAX_LIMIT, TopicConfig.MAX_LIMIT, 0)),
        CAP("concurrency cap 1,000,000 (never binds)", new TopicConfig(0, 0, TopicConfig.MAX_LIMIT));

        final String label;
        final TopicConfig config;

        Limit(String label, TopicConfig config) {
            this.label = label;
            this.config = config;
        }
    }

    @Override
    public String key() {
        return "flow";
    }

    @Override
    public String title() {
        return "9. Flow control";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        Sizes sizes = context.sizes();
        long seconds = Math.max(1, sizes.rateDuration().toSeconds());
        for (int round = 1; round <= context.rounds(); round++) {
            for (int rate : RATES) {
                // The default burst, a second's worth: a worker late by less than that loses no token.
                int burst = rate;
                ScenarioScope scope = context.scope(
                        title(),
                        "rate limit " + rate + "/s (burst " + burst + ") for " + seconds + " s",
                        SystemName.HOURGLASS,
                        round);
                rateAccuracy(scope, sizes, rate, burst, seconds);
            }
            // Each round starts with the next variant, so that none always runs first (a fresh JVM's warm-up) or right
            // after another's Redis stopped.
            Limit[] limits = Limit.values();
            for (int k = 0; k < limits.length; k++) {
                Limit limit = limits[(k + round - 1) % limits.length];
                ScenarioScope scope = context.scope(
                        title(),
                        "burst drain of " + sizes.burstJobs() + " jobs, " + limit.label,
                        SystemName.HOURGLASS,
                        round);
                burstDrain(scope, sizes, limit, JobRequest.DEFAULT_PRIORITY);
            }
            burstDrain(
                    context.scope(
                            title(),
                            "burst drain of " + sizes.burstJobs() + " jobs, no limit, every job at priority 1",
                            SystemName.HOURGLASS,
                            round),
                    sizes,
                    Limit.NONE,
                    1);
            for (boolean prioritised : new boolean[] {true, false}) {
                ScenarioScope scope = context.scope(
                        title(),
                        highJobs(sizes) + " jobs due during the drain of " + sizes.burstJobs() + " low ones, "
                                + (prioritised ? "priority 5 over -5" : "all at one priority"),
                        SystemName.HOURGLASS,
                        round);
                highPriorityLateness(scope, sizes, prioritised);
            }
        }
    }

    /** The high-priority jobs of the lateness scenario: a tenth of the burst, at most 1,000. */
    private static int highJobs(Sizes sizes) {
        return Math.min(1_000, sizes.burstJobs() / 10);
    }

    private static Hourglass connect(FreshRedis redis) {
        return Hourglass.builder().redisUri(redis.uri()).namespace("bench").build();
    }

    private static void schedule(Hourglass hourglass, long jobs) {
        schedule(hourglass, jobs, JobRequest.DEFAULT_PRIORITY);
    }

    private static void schedule(Hourglass hourglass, long jobs, int priority) {
        List<CompletableFuture<?>> inFlight = new ArrayList<>(SCHEDULES_IN_FLIGHT);
        for (long i = 0; i < jobs; i++) {
            inFlight.add(hourglass.scheduleAsync(JobRequest.builder(TOPIC)
                    .payload(PAYLOAD)
                    .priority(priority)
                    .build()));
            if (inFlight.size() == SCHEDULES_IN_FLIGHT) {
                CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new))
                        .join();
                inFlight.clear();
            }
        }
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
    }

    private static void rateAccuracy(ScenarioScope scope, Sizes sizes, int rate, int burst, long seconds)
            throws Exception {
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass = connect(redis)) {
            hourglass.inspector().configureTopic(TOPIC, new TopicConfig(rate, burst, 0));
            // One second more than the run can take, so that the limit, not the backlog, ends every second.
            schedule(hourglass, (seconds + 1) * rate + burst);
            AtomicLong first = new AtomicLong();
            AtomicLongArray perSecond = new AtomicLongArray((int) seconds + 2);
            hourglass.subscribe(
                    TOPIC,
                    job -> {
                        long now = System.nanoTime();
                        first.compareAndSet(0, now);
                        int second = (int) ((now - first.get()) / 1_000_000_000L);
                        if (second < perSecond.length()) {
                            perSecond.incrementAndGet(second);
                        }
                    },
                    WorkerOptions.builder().concurrency(sizes.consumers()).build());
            TimeUnit.SECONDS.sleep(seconds + 2);
            long delivered = 0;
            long lowest = Long.MAX_VALUE;
            long highest = 0;
            for (int s = 0; s < seconds; s++) {
                long n = perSecond.get(s);
                delivered += n;
                lowest = Math.min(lowest, n);
                highest = Math.max(highest, n);
            }
            // The full bucket goes out at once, in the first second; the rest is the refill.
            double measured = (double) (delivered - burst) / seconds;
            scope.add(
                    "delivered per second",
                    "jobs/s",
                    Direction.HIGHER_IS_BETTER,
                    measured,
                    "limit " + rate + "/s; seconds ranged " + lowest + " to " + highest);
            scope.add("deviation from the limit", "%", Direction.LOWER_IS_BETTER, 100.0 * (measured - rate) / rate);
        }
    }

    private static void burstDrain(ScenarioScope scope, Sizes sizes, Limit limit, int priority) throws Exception {
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass = connect(redis)) {
            if (limit != Limit.NONE) {
                hourglass.inspector().configureTopic(TOPIC, limit.config);
            }
            int jobs = sizes.burstJobs();
            schedule(hourglass, jobs, priority);
            AtomicLong done = new AtomicLong();
            CompletableFuture<Long> last = new CompletableFuture<>();
            CommandStats before = redis.commandStats();
            long started = System.nanoTime();
            hourglass.subscribe(
                    TOPIC,
                    job -> {
                        if (done.incrementAndGet() == jobs) {
                            last.complete(System.nanoTime());
                        }
                    },
                    WorkerOptions.builder().concurrency(sizes.consumers()).build());
            double took = (last.get(3, TimeUnit.MINUTES) - started) / 1e9;
            CommandStats calls = redis.commandStats().since(before);
            scope.add("drain throughput", "jobs/s", Direction.HIGHER_IS_BETTER, jobs / took);
            // Less noisy than the rate on a shared machine: what the claims (and acks) cost Redis per job.
            scope.add(
                    "Redis time in scripts per job",
                    "µs",
                    Direction.LOWER_IS_BETTER,
                    (double) calls.scriptMicros() / jobs);
        }
    }

    /**
     * A backlog of low-priority jobs due now, drained by one worker; while it drains, high-priority jobs come due at
     * about 1,000/s (each scheduled due now). Records the lateness of the high ones only: with priorities they pass the
     * backlog at the next claim, without (all at one priority) they wait behind it.
     */
    private static void highPriorityLateness(ScenarioScope scope, Sizes sizes, boolean prioritised) throws Exception {
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass = connect(redis)) {
            int low = sizes.burstJobs();
            int high = highJobs(sizes);
            schedule(hourglass, low, prioritised ? JobRequest.MIN_PRIORITY : JobRequest.DEFAULT_PRIORITY);
            LatenessRecorder recorder = new LatenessRecorder(high);
            AtomicLong lowDone = new AtomicLong();
            hourglass.subscribe(
                    TOPIC,
                    job -> {
                        if (job.id().startsWith("high-")) {
                            recorder.record(job.dueAt().toEpochMilli());
                        } else {
                            lowDone.incrementAndGet();
                        }
                    },
                    WorkerOptions.builder().concurrency(sizes.consumers()).build());
            long started = LatenessRecorder.nowMicros();
            List<CompletableFuture<?>> sent = new ArrayList<>();
            for (int i = 0; i < high; i++) {
                sent.add(hourglass.scheduleAsync(JobRequest.builder(TOPIC)
                        .id("high-" + i)
                        .payload(PAYLOAD)
                        .priority(prioritised ? JobRequest.MAX_PRIORITY : JobRequest.DEFAULT_PRIORITY)
                        .build()));
                if (i % 10 == 9) {
                    TimeUnit.MILLISECONDS.sleep(10);
                }
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).join();
            recorder.await(java.time.Duration.ofMinutes(3));
            long lowLeft = low - lowDone.get();
            scope.addDrain(recorder.result(started, ""), false);
            scope.add(
                    "low-priority jobs not yet handled when the last high one was",
                    "jobs",
                    Direction.INFO,
                    lowLeft,
                    "the backlog was still draining while the high jobs came due when this is above 0");
        }
    }
}
