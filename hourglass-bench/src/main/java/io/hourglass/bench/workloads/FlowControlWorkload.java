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
 * throughput and as Redis's time in scripts per job.
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
                burstDrain(scope, sizes, limit);
            }
        }
    }

    private static Hourglass connect(FreshRedis redis) {
        return Hourglass.builder().redisUri(redis.uri()).namespace("bench").build();
    }

    private static void schedule(Hourglass hourglass, long jobs) {
        List<CompletableFuture<?>> inFlight = new ArrayList<>(SCHEDULES_IN_FLIGHT);
        for (long i = 0; i < jobs; i++) {
            inFlight.add(hourglass.scheduleAsync(
                    JobRequest.builder(TOPIC).payload(PAYLOAD).build()));
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

    private static void burstDrain(ScenarioScope scope, Sizes sizes, Limit limit) throws Exception {
        try (FreshRedis redis = FreshRedis.start();
                Hourglass hourglass = connect(redis)) {
            if (limit != Limit.NONE) {
                hourglass.inspector().configureTopic(TOPIC, limit.config);
            }
            int jobs = sizes.burstJobs();
            schedule(hourglass, jobs);
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
}
