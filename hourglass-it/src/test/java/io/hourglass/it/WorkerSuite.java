package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Backoff;
import io.hourglass.HandlerThreads;
import io.hourglass.Hourglass;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.ScheduleResult;
import io.hourglass.StorageFormat;
import io.hourglass.TopicStats;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** In-process workers: on-time delivery, retries, leases, timeouts, back-pressure and graceful shutdown. */
abstract class WorkerSuite {
    static final String TOPIC = "tasks";

    /** One handler start: which job, which attempt, when (this machine's clock, which Redis also reads). */
    record Start(String id, int attempt, long atMs, Instant dueAt) {}

    static JobRequest.Builder job(String id) {
        return JobRequest.builder(TOPIC).id(id).payload(id);
    }

    int shards() {
        return getClass().getAnnotation(RedisTest.class).shards();
    }

    @Test
    void deliversEveryJobOnceAndNeverBeforeItsDueTime(HourglassFactory factory) {
        // A sweep of an hour: every delivery here comes from the due-time timers and the wake signals.
        Hourglass hourglass = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        List<Start> starts = new CopyOnWriteArrayList<>();
        hourglass.subscribe(
                TOPIC,
                job -> starts.add(new Start(job.id(), job.attempt(), System.currentTimeMillis(), job.dueAt())),
                WorkerOptions.builder().concurrency(8).build());
        Map<String, Instant> due = new ConcurrentHashMap<>();
        for (int i = 0; i < 200; i++) {
            ScheduleResult r = hourglass.schedule(job("j" + i)
                    .delay(Duration.ofMillis(ThreadLocalRandom.current().nextLong(0, 1500)))
                    .build());
            due.put(r.id(), r.dueAt());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> starts.size() >= 200);
        assertThat(starts).extracting(Start::id).doesNotHaveDuplicates().hasSize(200);
        List<Long> lateness = new ArrayList<>();
        for (Start s : starts) {
            assertThat(s.atMs())
                    .as("start of %s", s.id())
                    .isGreaterThanOrEqualTo(due.get(s.id()).toEpochMilli());
            lateness.add(s.atMs() - due.get(s.id()).toEpochMilli());
        }
        Collections.sort(lateness);
        System.out.printf(
                "lateness over 200 jobs: p50 %d ms, p99 %d ms, max %d ms%n",
                lateness.get(100), lateness.get(197), lateness.get(199));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.stats(TOPIC).equals(new TopicStats(TOPIC, 0, 0, 0, 0)));
    }

    @Test
    void aJobScheduledByAnotherProcessWakesAnIdleWorker(HourglassFactory factory) {
        Hourglass worker = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        Hourglass producer = factory.create();
        List<Start> starts = new CopyOnWriteArrayList<>();
        worker.subscribe(
                TOPIC, job -> starts.add(new Start(job.id(), job.attempt(), System.currentTimeMillis(), job.dueAt())));
        Pause.millis(300);
        ScheduleResult later =
                producer.schedule(job("later").delay(Duration.ofSeconds(1)).build());
        ScheduleResult sooner =
                producer.schedule(job("sooner").delay(Duration.ofMillis(300)).build());
        await().atMost(Duration.ofSeconds(5)).until(() -> starts.size() == 2);
        assertThat(starts).extracting(Start::id).containsExactly("sooner", "later");
        assertThat(starts.get(0).atMs()).isGreaterThanOrEqualTo(sooner.dueAt().toEpochMilli());
        assertThat(starts.get(1).atMs()).isGreaterThanOrEqualTo(later.dueAt().toEpochMilli());
    }

    @Test
    void inPollingModeTheSweepFindsJobsOfOtherProcesses(HourglassFactory factory) {
        Hourglass worker = factory.create(b -> b.pollingMode(true).sweepInterval(Duration.ofMillis(300)));
        Hourglass producer = factory.create(b -> b.pollingMode(true));
        CountDownLatch done = new CountDownLatch(1);
        worker.subscribe(TOPIC, job -> done.countDown());
        Pause.millis(200);
        producer.schedule(job("p").build());
        await().atMost(Duration.ofSeconds(3)).until(() -> done.getCount() == 0);
    }

    @Test
    void anIdleWorkerMakesNoRedisCallsBetweenSweeps(HourglassFactory factory, RedisServerProcess redis) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        hourglass.schedule(job("far").delay(Duration.ofHours(2)).build());
        hourglass.subscribe(TOPIC, job -> {});
        Pause.millis(300);
        long before = scriptCalls(redis);
        Pause.millis(1500);
        assertThat(scriptCalls(redis) - before).isZero();
    }

    @Test
    void aFailingJobIsRetriedOnItsSteppedScheduleThenDeadLettered(Hourglass hourglass) {
        List<Start> starts = new CopyOnWriteArrayList<>();
        hourglass.subscribe(TOPIC, job -> {
            starts.add(new Start(job.id(), job.attempt(), System.currentTimeMillis(), job.dueAt()));
            throw new IllegalStateException("downstream said no to " + job.id());
        });
        hourglass.schedule(job("f").maxAttempts(3)
                .backoff(Backoff.stepped(Duration.ofMillis(200), Duration.ofMillis(500)))
                .build());
        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.get(TOPIC, "f").map(JobInfo::state).orElse(null) == JobState.DEAD);
        assertThat(starts).extracting(Start::attempt).containsExactly(1, 2, 3);
        assertThat(starts.get(1).atMs() - starts.get(0).atMs()).isGreaterThanOrEqualTo(200);
        assertThat(starts.get(2).atMs() - starts.get(1).atMs()).isGreaterThanOrEqualTo(500);
        JobInfo dead = hourglass.deadLetters(TOPIC, 0, 1).get(0);
        assertThat(dead.lastError()).isEqualTo("java.lang.IllegalStateException: downstream said no to f");
        assertThat(dead.attempt()).isEqualTo(3);
    }

    @Test
    void aHandlerPastItsTimeoutIsInterruptedAndTheJobRetried(Hourglass hourglass) {
        List<Start> starts = new CopyOnWriteArrayList<>();
        AtomicInteger interrupted = new AtomicInteger();
        hourglass.subscribe(
                TOPIC,
                job -> {
                    starts.add(new Start(job.id(), job.attempt(), System.currentTimeMillis(), job.dueAt()));
                    if (job.attempt() == 1) {
                        try {
                            Thread.sleep(10_000);
                        } catch (InterruptedException e) {
                            interrupted.incrementAndGet();
                            throw e;
                        }
                    }
                },
                WorkerOptions.builder().handlerTimeout(Duration.ofMillis(200)).build());
        hourglass.schedule(job("slow").backoff(Backoff.fixed(Duration.ZERO)).build());
        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.get(TOPIC, "slow").isEmpty());
        assertThat(starts).extracting(Start::attempt).containsExactly(1, 2);
        assertThat(interrupted).hasValue(1);
    }

    @Test
    void aHandlerCanExtendItsLeaseToRunLongerThanIt(Hourglass hourglass) {
        List<Start> starts = new CopyOnWriteArrayList<>();
        hourglass.subscribe(TOPIC, job -> {
            starts.add(new Start(job.id(), job.attempt(), System.currentTimeMillis(), job.dueAt()));
            Instant before = job.leaseUntil();
            assertThat(job.extendLease(Duration.ofSeconds(10))).isAfter(before).isEqualTo(job.leaseUntil());
            Thread.sleep(1000);
        });
        hourglass.schedule(job("long").lease(Duration.ofMillis(300)).build());
        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.get(TOPIC, "long").isEmpty());
        assertThat(starts).hasSize(1);
    }

    @Test
    void aHungWorkersJobGoesToAnotherWorkerWhenItsLeaseExpires(HourglassFactory factory) {
        Hourglass hung = factory.create();
        Hourglass healthy = factory.create();
        CountDownLatch hungStarted = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        hung.subscribe(
                TOPIC,
                job -> {
                    hungStarted.countDown();
                    never.await();
                },
                WorkerOptions.builder()
                        .concurrency(1)
                        .shutdownGrace(Duration.ZERO)
                        .build());
        hung.schedule(job("h").lease(Duration.ofMillis(400)).build());
        await().atMost(Duration.ofSeconds(3)).until(() -> hungStarted.getCount() == 0);

        List<Start> starts = new CopyOnWriteArrayList<>();
        healthy.subscribe(
                TOPIC, job -> starts.add(new Start(job.id(), job.attempt(), System.currentTimeMillis(), job.dueAt())));
        await().atMost(Duration.ofSeconds(5)).until(() -> starts.size() == 1);
        assertThat(starts.get(0).attempt()).isEqualTo(2);
        await().atMost(Duration.ofSeconds(2))
                .until(() -> healthy.get(TOPIC, "h").isEmpty());
        never.countDown();
    }

    @Test
    void aWorkerNeverClaimsMoreJobsThanItHasFreeSlots(Hourglass hourglass) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        for (int i = 0; i < 10; i++) {
            hourglass.schedule(job("bp" + i).build());
        }
        hourglass.subscribe(
                TOPIC,
                job -> {
                    running.incrementAndGet();
                    release.await();
                },
                WorkerOptions.builder().concurrency(2).build());
        await().atMost(Duration.ofSeconds(3)).until(() -> running.get() == 2);
        Pause.millis(500);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 8, 2, 0));
        release.countDown();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> hourglass.stats(TOPIC).equals(new TopicStats(TOPIC, 0, 0, 0, 0)));
        assertThat(running).hasValue(10);
    }

    @Test
    void handlersRunOnVirtualThreadsWhenAskedWithTheSameSlotsAndTimeouts(Hourglass hourglass) {
        Assumptions.assumeTrue(
                Runtime.version().feature() >= 21,
                "skipped: virtual threads need Java 21 or later; this JVM is Java "
                        + Runtime.version().feature());
        Set<String> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        AtomicInteger interrupted = new AtomicInteger();
        List<Start> slowStarts = new CopyOnWriteArrayList<>();
        hourglass.subscribe(
                TOPIC,
                job -> {
                    Thread thread = Thread.currentThread();
                    threads.add((HandlerThreads.isVirtual(thread) ? "virtual " : "platform ") + thread.getName());
                    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                    try {
                        if (job.id().equals("slow")) {
                            slowStarts.add(new Start(job.id(), job.attempt(), System.currentTimeMillis(), job.dueAt()));
                        }
                        Thread.sleep(job.id().equals("slow") && job.attempt() == 1 ? 10_000 : 20);
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                        throw e;
                    } finally {
                        running.decrementAndGet();
                    }
                },
                WorkerOptions.builder()
                        .concurrency(4)
                        .virtualThreads(true)
                        .handlerTimeout(Duration.ofMillis(300))
                        .build());
        hourglass.schedule(job("slow").backoff(Backoff.fixed(Duration.ZERO)).build());
        for (int i = 0; i < 60; i++) {
            hourglass.schedule(job("v" + i).build());
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> hourglass.stats(TOPIC).equals(new TopicStats(TOPIC, 0, 0, 0, 0)));
        assertThat(threads).isNotEmpty().allMatch(t -> t.startsWith("virtual hourglass-worker-" + TOPIC + "-"));
        assertThat(mostAtOnce.get()).isBetween(2, 4);
        assertThat(slowStarts).extracting(Start::attempt).containsExactly(1, 2);
        assertThat(interrupted).hasValue(1);
    }

    /**
     * Subscribes a worker of one handler slot and gives it job "running", whose handler waits for {@code release}.
     *
     * @return the ids of the jobs the worker started, in order
     */
    private static List<String> busyWithOneJob(Hourglass hourglass, CountDownLatch release) {
        List<String> started = new CopyOnWriteArrayList<>();
        hourglass.subscribe(
                TOPIC,
                job -> {
                    started.add(job.id());
                    release.await();
                },
                WorkerOptions.builder().concurrency(1).build());
        hourglass.schedule(job("running").build());
        await().atMost(Duration.ofSeconds(3)).until(() -> started.size() == 1);
        return started;
    }

    /**
     * An id of prefix + 0, 1, … whose shard {@code redis} serves: in a cluster, {@code redis} is one of the masters,
     * and only the script calls of its own shards count there.
     */
    private String idServedBy(HourglassFactory factory, RedisServerProcess redis, String prefix) {
        return NodeKeys.firstServedBy(
                redis,
                prefix,
                id -> StorageFormat.shardKeyPrefix(factory.namespace(), TOPIC, StorageFormat.shardOf(id, shards())));
    }

    /** {@code count} ids of prefix + 0, 1, … that fall in one shard, one that {@code redis} serves. */
    private List<String> idsInOneShardServedBy(
            HourglassFactory factory, RedisServerProcess redis, String prefix, int count) {
        String first = idServedBy(factory, redis, prefix);
        List<String> ids = new ArrayList<>(List.of(first));
        for (int i = 0; ids.size() < count; i++) {
            String id = prefix + i;
            if (StorageFormat.shardOf(id, shards()) == StorageFormat.shardOf(first, shards()) && !ids.contains(id)) {
                ids.add(id);
            }
        }
        return ids;
    }

    /**
     * The {@code max} (free slots to fill) of each {@code claim.lua} call that {@code redis} runs during
     * {@code action}, in order, read from a slow log that logs every command meanwhile.
     */
    private static List<Integer> claimSizesWhile(RedisServerProcess redis, Runnable action) {
        List<Integer> sizes = new ArrayList<>();
        for (List<?> args : scriptRunsWhile(redis, "claim", 1024, action)) {
            int keys = Integer.parseInt(String.valueOf(args.get(2)));
            sizes.add(Integer.parseInt(String.valueOf(args.get(3 + keys + 3))));
        }
        return sizes;
    }

    /**
     * The arguments of each call of {@code script} that {@code redis} runs during {@code action}, in order, read from a
     * slow log of {@code logLength} entries that logs every command meanwhile (Redis 7 logs a script's commands too).
     */
    private static List<List<?>> scriptRunsWhile(
            RedisServerProcess redis, String script, int logLength, Runnable action) {
        Map<String, String> settings = RawRedis.call(redis, r -> {
            Map<String, String> before = r.configGet("slowlog-*");
            r.configSet("slowlog-log-slower-than", "0");
            r.configSet("slowlog-max-len", Integer.toString(logLength));
            r.slowlogReset();
            return before;
        });
        List<Object> log;
        try {
            action.run();
        } finally {
            log = RawRedis.call(redis, r -> {
                List<Object> entries = r.slowlogGet(logLength);
                // One setting per CONFIG SET, which is all Redis 6 takes.
                settings.forEach(r::configSet);
                return entries;
            });
        }
        assertThat(log).as("slow log entries: the log held every command").hasSizeLessThan(logLength);
        List<List<?>> calls = new ArrayList<>();
        for (Object entry : log) {
            // An entry: id, time, duration, the command's arguments, … (newest first).
            List<?> args = (List<?>) ((List<?>) entry).get(3);
            // By EVALSHA with the script's SHA, or (Redis 7.0+) by FCALL of the library's function for the script.
            if (args.size() > 3
                    && (("evalsha".equalsIgnoreCase(String.valueOf(args.get(0)))
                                    && StorageFormat.scriptSha(script).equals(String.valueOf(args.get(1))))
                            || ("fcall".equalsIgnoreCase(String.valueOf(args.get(0)))
                                    && String.valueOf(args.get(1)).endsWith("_" + script)))) {
                calls.add(0, args);
            }
        }
        return calls;
    }

    /**
     * The script calls {@code redis} runs from 300 ms after a worker got busy (its own claims settled) until
     * {@code settleMs} after {@code action}.
     */
    private static long scriptCallsWhile(RedisServerProcess redis, Runnable action, long settleMs) {
        Pause.millis(300);
        long before = scriptCalls(redis);
        action.run();
        Pause.millis(settleMs);
        return scriptCalls(redis) - before;
    }

    @Test
    void aWorkerWithEveryHandlerBusyClaimsNothingForAJobItCannotRunYet(
            HourglassFactory factory, RedisServerProcess redis) {
        // A sweep of an hour: every claim here comes from a wake signal or a freed slot.
        Hourglass hourglass = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        String waiting = idServedBy(factory, redis, "waiting");
        CountDownLatch release = new CountDownLatch(1);
        List<String> started = busyWithOneJob(hourglass, release);
        assertThat(scriptCallsWhile(redis, () -> hourglass.schedule(job(waiting).build()), 500))
                .as("script calls: the schedule, and no claim")
                .isOne();
        release.countDown();
        // The freed slot claims the waiting job; nothing else would within the hour.
        await().atMost(Duration.ofSeconds(3)).until(() -> started.size() == 2);
        assertThat(started).containsExactly("running", waiting);
    }

    @Test
    void aWorkerWithEveryHandlerBusyClaimsNothingWhenAJobFallsDue(HourglassFactory factory, RedisServerProcess redis) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        String later = idServedBy(factory, redis, "later");
        CountDownLatch release = new CountDownLatch(1);
        List<String> started = busyWithOneJob(hourglass, release);
        assertThat(scriptCallsWhile(
                        redis,
                        () -> hourglass.schedule(
                                job(later).delay(Duration.ofMillis(300)).build()),
                        800))
                .as("script calls: the schedule; the due-time timer claims nothing without a free slot")
                .isOne();
        // Due by Redis's clock, the job counts as ready though no claim has touched it.
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 1, 1, 0));
        release.countDown();
        await().atMost(Duration.ofSeconds(3)).until(() -> started.size() == 2);
        assertThat(started).containsExactly("running", later);
    }

    @Test
    void besideAClaimInFlightAWorkerClaimsOnlyForHalfItsSlotsOrMore(
            HourglassFactory factory, RedisServerProcess redis) {
        Hourglass hourglass = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        List<String> ids = idsInOneShardServedBy(factory, redis, "slot", 7);
        List<Integer> claimed =
                claimSizesAsSlotsFreeBesideAPausedClaim(hourglass, redis, ids.subList(0, 4), ids.subList(4, 7), 3, 200);
        assertThat(claimed)
                .as("slots asked for by the claims of the shard, in order")
                .startsWith(1, 2);
    }

    @Test
    void besideAnotherShardsClaimInFlightAWorkerClaimsOnlyForHalfItsSlotsOrMore(
            HourglassFactory factory, RedisServerProcess redis) {
        List<Integer> claimed = claimSizesOverTwoShards(factory, redis, 4, 2, 3, 200);
        // Without the rule across shards, the second slot freed would claim the other shard's jobs one at a time.
        assertThat(claimed)
                .as("slots asked for by the claims of either shard, in order")
                .startsWith(1, 2);
    }

    @Test
    void onSeveralMastersAClaimBesideAnotherWaitsForTheMastersShareOfHalfTheSlotsButNoFewerThanEight(
            HourglassFactory factory, RedisServerProcess redis) {
        List<Integer> claimed = claimSizesOverTwoShards(factory, redis, 32, 12, 17, 50);
        // 32 slots: on one Redis a claim beside another waits for 16 free slots; on 3 masters for max(8, 16 / 3), so
        // that each master can have claims of its own in flight while the others run theirs.
        assertThat(claimed)
                .as("slots asked for by the claims of either shard, in order, on %d master(s)", masters(redis))
                .startsWith(masters(redis) == 1 ? new Integer[] {1, 16} : new Integer[] {1, 8, 8});
    }

    /**
     * {@link #claimSizesAsSlotsFreeBesideAPausedClaim} over two shards of the topic served by {@code redis}: the
     * {@code held} jobs in the first, {@code nextPerShard} jobs next in each. The test is skipped where {@code redis}
     * serves fewer than two shards of the topic.
     */
    private List<Integer> claimSizesOverTwoShards(
            HourglassFactory factory, RedisServerProcess redis, int held, int nextPerShard, int freed, long spacingMs) {
        List<Integer> served = IntStream.range(0, shards())
                .filter(k -> NodeKeys.serves(redis, StorageFormat.shardKeyPrefix(factory.namespace(), TOPIC, k)))
                .boxed()
                .toList();
        Assumptions.assumeTrue(
                served.size() >= 2,
                "needs two shards of the topic on the node it pauses, which serves " + served.size() + " of "
                        + shards());
        Hourglass hourglass = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        List<String> next = new ArrayList<>(idsInShard("first", served.get(0), nextPerShard));
        next.addAll(idsInShard("second", served.get(1), nextPerShard));
        return claimSizesAsSlotsFreeBesideAPausedClaim(
                hourglass, redis, idsInShard("held", served.get(0), held), next, freed, spacingMs);
    }

    /** The masters with slots of the cluster {@code redis} belongs to; 1 when it is not a cluster node. */
    private static int masters(RedisServerProcess redis) {
        return RawRedis.call(
                redis,
                c -> c.info("cluster").contains("cluster_enabled:1")
                        ? (int) c.clusterNodes()
                                .lines()
                                .filter(line -> line.split(" ")[2].contains("master") && line.split(" ").length > 8)
                                .count()
                        : 1);
    }

    /**
     * Keeps a worker busy with {@code held}, one slot each, schedules {@code next} (all served by {@code redis}), then,
     * with {@code redis} paused, frees {@code freed} slots {@code spacingMs} apart: the first freed slot's claim waits
     * on the paused Redis, and beside it a claim goes only once enough slots are free (on one Redis half the
     * concurrency: 2 of 4). Returns the slots asked for by each claim that {@code redis} ran meanwhile, in order.
     */
    private static List<Integer> claimSizesAsSlotsFreeBesideAPausedClaim(
            Hourglass hourglass,
            RedisServerProcess redis,
            List<String> held,
            List<String> next,
            int freed,
            long spacingMs) {
        Map<String, CountDownLatch> releases = new ConcurrentHashMap<>();
        held.forEach(id -> releases.put(id, new CountDownLatch(1)));
        List<String> started = new CopyOnWriteArrayList<>();
        hourglass.subscribe(
                TOPIC,
                job -> {
                    started.add(job.id());
                    CountDownLatch release = releases.get(job.id());
                    if (release != null) {
                        release.await();
                    }
                },
                WorkerOptions.builder().concurrency(held.size()).build());
        held.forEach(id -> hourglass.schedule(job(id).build()));
        await().atMost(Duration.ofSeconds(3)).until(() -> started.size() == held.size());
        next.forEach(id -> hourglass.schedule(job(id).build()));
        Pause.millis(300);
        List<Integer> claimed = claimSizesWhile(redis, () -> {
            redis.pause();
            try {
                for (String id : held.subList(0, freed)) {
                    releases.get(id).countDown();
                    Pause.millis(spacingMs);
                }
            } finally {
                redis.resume();
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> started.containsAll(next));
        });
        releases.values().forEach(CountDownLatch::countDown);
        return claimed;
    }

    /** {@code count} ids of prefix + 0, 1, … that fall in {@code shard}. */
    private List<String> idsInShard(String prefix, int shard, int count) {
        return IntStream.iterate(0, i -> i + 1)
                .mapToObj(i -> prefix + i)
                .filter(id -> StorageFormat.shardOf(id, shards()) == shard)
                .limit(count)
                .toList();
    }

    @Test
    void underABacklogTheShardsTakeTurns(Hourglass hourglass) {
        int shards = shards();
        int jobs = 12 * shards;
        for (int i = 0; i < jobs; i++) {
            hourglass.schedule(job("turn" + i).build());
        }
        List<Integer> servedShards = new CopyOnWriteArrayList<>();
        hourglass.subscribe(
                TOPIC,
                job -> servedShards.add(StorageFormat.shardOf(job.id(), shards)),
                WorkerOptions.builder().concurrency(1).build());
        await().atMost(Duration.ofSeconds(10)).until(() -> servedShards.size() == jobs);
        // 12 jobs in every shard: shards served in turn each show up about 4 times among the first 4 x shards
        // deliveries; shards drained one after another would leave most of them out.
        Map<Integer, Long> early = servedShards.subList(0, 4 * shards).stream()
                .collect(Collectors.groupingBy(shard -> shard, Collectors.counting()));
        assertThat(early)
                .as("deliveries per shard among the first %d: %s", 4 * shards, servedShards)
                .hasSize(shards)
                .allSatisfy((shard, count) -> assertThat(count).isGreaterThanOrEqualTo(2));
    }

    @Test
    void underABurstOverManyShardsMostAcksRideOnTheClaimsOfTheirShards(
            HourglassFactory factory, RedisServerProcess redis) {
        int shards = 16;
        // In a cluster only the calls of the shards that redis serves are logged, so only their jobs are scheduled.
        Set<Integer> served = IntStream.range(0, shards)
                .filter(k -> NodeKeys.serves(redis, StorageFormat.shardKeyPrefix(factory.namespace(), TOPIC, k)))
                .boxed()
                .collect(Collectors.toSet());
        int jobs = 640;
        Hourglass hourglass = factory.create(b -> b.shards(shards).sweepInterval(Duration.ofHours(1)));
        IntStream.iterate(0, i -> i + 1)
                .mapToObj(i -> "burst" + i)
                .filter(id -> served.contains(StorageFormat.shardOf(id, shards)))
                .limit(jobs)
                .forEach(id -> hourglass.schedule(job(id).build()));
        List<List<?>> ackCalls = ackCallsWhileHandling(hourglass, redis, jobs, 16);
        // A claim may carry only its own shard's acks. When the slots a shard's jobs freed went to the next shard in
        // turn, its acks went alone in ack.lua: 112 to 132 calls here (68 to 74 on the cluster's node of 5 shards);
        // now 33 to 56.
        assertThat(ackCalls)
                .as("ack.lua calls for %d jobs over %d shards", jobs, served.size())
                .hasSizeLessThan(jobs / 9);
    }

    @Test
    void atASteadyRateAcksRideOnTheClaimsOfTheJobsComingDueNext(HourglassFactory factory, RedisServerProcess redis) {
        int shards = 4;
        // In a cluster only the calls of the shards that redis serves are logged: every job goes to one of them.
        int shard = IntStream.range(0, shards)
                .filter(k -> NodeKeys.serves(redis, StorageFormat.shardKeyPrefix(factory.namespace(), TOPIC, k)))
                .findFirst()
                .orElseThrow();
        int jobs = 100;
        Hourglass hourglass = factory.create(b -> b.shards(shards).sweepInterval(Duration.ofHours(1)));
        Instant first = Instant.now().plusMillis(800);
        List<String> ids = IntStream.iterate(0, i -> i + 1)
                .mapToObj(i -> "steady" + i)
                .filter(id -> StorageFormat.shardOf(id, shards) == shard)
                .limit(jobs)
                .toList();
        for (int i = 0; i < jobs; i++) {
            // 2 ms apart: 500 jobs/s, each coming due after the one before was handled.
            hourglass.schedule(job(ids.get(i)).runAt(first.plusMillis(2L * i)).build());
        }
        List<List<?>> ackCalls = ackCallsWhileHandling(hourglass, redis, jobs, 4);
        // Each job's ack waits for the due-time timer's claim of the next one (TopicWorker.ACK_HOLD_FOR_TIMER_MICROS):
        // 16 to 25 calls here. Before, the ack of each job that ran on time went alone: 77 to 92 calls.
        assertThat(ackCalls.size())
                .as("ack.lua calls for %d jobs coming due 2 ms apart", jobs)
                .isLessThan(jobs / 2);
    }

    /**
     * Subscribes a worker of {@code concurrency} slots, waits until it handled {@code jobs} jobs and their acks landed,
     * and returns the {@code ack.lua} calls {@code redis} ran meanwhile.
     */
    private static List<List<?>> ackCallsWhileHandling(
            Hourglass hourglass, RedisServerProcess redis, int jobs, int concurrency) {
        AtomicInteger handled = new AtomicInteger();
        List<List<?>> ackCalls = scriptRunsWhile(redis, "ack", 50_000, () -> {
            hourglass.subscribe(
                    TOPIC,
                    job -> handled.incrementAndGet(),
                    WorkerOptions.builder().concurrency(concurrency).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> handled.get() == jobs);
            Pause.millis(300);
        });
        assertThat(hourglass.stats(TOPIC)).as("every ack landed").isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
        return ackCalls;
    }

    @Test
    void closeLetsRunningHandlersFinishWithinTheGracePeriod(Hourglass hourglass) {
        AtomicInteger finished = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(2);
        Worker worker = hourglass.subscribe(
                TOPIC,
                job -> {
                    started.countDown();
                    Thread.sleep(400);
                    finished.incrementAndGet();
                },
                WorkerOptions.builder()
                        .concurrency(2)
                        .shutdownGrace(Duration.ofSeconds(5))
                        .build());
        hourglass.schedule(job("g1").build());
        hourglass.schedule(job("g2").build());
        await().atMost(Duration.ofSeconds(3)).until(() -> started.getCount() == 0);
        worker.close();
        assertThat(worker.isRunning()).isFalse();
        assertThat(finished).hasValue(2);
        assertThat(hourglass.get(TOPIC, "g1")).isEmpty();
        assertThat(hourglass.get(TOPIC, "g2")).isEmpty();
    }

    @Test
    void closeHandsBackJobsWhoseHandlersOutlastTheGracePeriodWithoutChargingAnAttempt(Hourglass hourglass) {
        CountDownLatch started = new CountDownLatch(2);
        Worker worker = hourglass.subscribe(
                TOPIC,
                job -> {
                    started.countDown();
                    Thread.sleep(60_000);
                },
                WorkerOptions.builder()
                        .concurrency(2)
                        .shutdownGrace(Duration.ofMillis(200))
                        .build());
        for (int i = 0; i < 5; i++) {
            hourglass.schedule(job("s" + i).build());
        }
        await().atMost(Duration.ofSeconds(3)).until(() -> started.getCount() == 0);
        long start = System.nanoTime();
        worker.close();
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5000);
        for (int i = 0; i < 5; i++) {
            JobInfo info = hourglass.get(TOPIC, "s" + i).orElseThrow();
            assertThat(info.state()).isEqualTo(JobState.READY);
            assertThat(info.attempt()).as("attempt of s%d", i).isZero();
        }
    }

    @Test
    void jobsClaimedButNotStartedAtCloseAreHandedBackAtOnce(Hourglass hourglass) {
        // A handler slow to start: the worker claims a batch, and close() begins before the batch's jobs start.
        CountDownLatch firstStarted = new CountDownLatch(1);
        Set<String> handled = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 20; i++) {
            hourglass.schedule(job("u" + i).build());
        }
        Worker worker = hourglass.subscribe(
                TOPIC,
                job -> {
                    handled.add(job.id());
                    firstStarted.countDown();
                    Thread.sleep(200);
                },
                WorkerOptions.builder()
                        .concurrency(4)
                        .shutdownGrace(Duration.ofSeconds(5))
                        .build());
        await().atMost(Duration.ofSeconds(3)).until(() -> firstStarted.getCount() == 0);
        worker.close();
        TopicStats stats = hourglass.stats(TOPIC);
        assertThat(stats.active()).isZero();
        assertThat(stats.ready()).isEqualTo(20 - handled.size());
        for (int i = 0; i < 20; i++) {
            hourglass.get(TOPIC, "u" + i).ifPresent(info -> assertThat(info.attempt())
                    .isZero());
        }
    }

    @Test
    void competingWorkersShareTheJobsWithoutDuplicates(HourglassFactory factory) {
        Map<String, Integer> deliveries = new ConcurrentHashMap<>();
        List<Hourglass> instances = List.of(factory.create(), factory.create(), factory.create());
        for (Hourglass h : instances) {
            h.subscribe(
                    TOPIC,
                    job -> deliveries.merge(job.id(), 1, Integer::sum),
                    WorkerOptions.builder().concurrency(4).build());
        }
        for (int i = 0; i < 300; i++) {
            instances
                    .get(i % 3)
                    .schedule(job("c" + i).delay(Duration.ofMillis(i % 500)).build());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() == 300);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> instances.get(0).stats(TOPIC).active() == 0);
        assertThat(deliveries.values()).allMatch(n -> n == 1);
    }

    @Test
    void scriptsAreReloadedWhenRedisForgetsThem(Hourglass hourglass, RedisServerProcess redis) {
        hourglass.schedule(job("before").build());
        RawRedis.call(redis, r -> r.scriptFlush());
        hourglass.schedule(job("after").build());
        assertThat(hourglass.reserve(TOPIC, 2, null)).hasSize(2);
    }

    /** EVAL and EVALSHA calls {@code redis} has answered so far. */
    private static long scriptCalls(RedisServerProcess redis) {
        long calls = 0;
        for (String line : RawRedis.call(redis, r -> r.info("commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")
                    || line.startsWith("cmdstat_eval:")
                    || line.startsWith("cmdstat_fcall:")) {
                // Redis 7 adds rejected_calls= and failed_calls= after calls=.
                calls += Long.parseLong(line.replaceFirst("^[^:]+:calls=(\\d+),.*", "$1"));
            }
        }
        return calls;
    }
}
