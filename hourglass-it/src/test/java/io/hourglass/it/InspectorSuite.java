package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.hourglass.CallbackOptions;
import io.hourglass.Delivery;
import io.hourglass.HistoryMinute;
import io.hourglass.Hourglass;
import io.hourglass.Inspector;
import io.hourglass.JobInfo;
import io.hourglass.JobPage;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.RunNowOutcome;
import io.hourglass.StaleReceiptException;
import io.hourglass.StorageFormat;
import io.hourglass.TopicOverview;
import io.hourglass.TopicStats;
import io.hourglass.WorkerOptions;
import io.hourglass.testkit.HourglassFactory;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The inspector ({@link Hourglass#inspector()}): overviews, paged listings, history, pause and resume, run now, bulk
 * dead-letter actions and purges, run once per shard layout by its subclasses. The test kit checks the invariants after
 * each test, so every action must leave each job in exactly one place.
 */
abstract class InspectorSuite {
    static final String TOPIC = "reports";

    static JobRequest.Builder job(String id) {
        return JobRequest.builder(TOPIC).id(id).payload("payload-" + id);
    }

    /** Schedules the jobs without waiting for each, so that they share calls; returns when all are stored. */
    static void scheduleAll(Hourglass hourglass, List<JobRequest> requests) {
        CompletableFuture.allOf(requests.stream().map(hourglass::scheduleAsync).toArray(CompletableFuture[]::new))
                .join();
    }

    /** Makes dead letters of the given ids: one attempt each, nacked with an error. */
    static void killAll(Hourglass hourglass, String... ids) {
        for (String id : ids) {
            hourglass.schedule(job(id).maxAttempts(1).build());
        }
        List<Delivery> got = hourglass.reserve(TOPIC, ids.length, null);
        assertThat(got).hasSize(ids.length);
        for (Delivery d : got) {
            assertThat(hourglass.nack(TOPIC, d.id(), d.receipt(), "boom " + d.id(), null))
                    .isEqualTo(JobState.DEAD);
        }
    }

    /** Makes {@code n} dead letters at once: one attempt each, left to lease out, reaped by a later reservation. */
    static void expireAll(Hourglass hourglass, String prefix, int n) throws InterruptedException {
        List<JobRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(job(prefix + i).maxAttempts(1).build());
        }
        scheduleAll(hourglass, requests);
        int leased = 0;
        while (leased < n) {
            int got = hourglass.reserve(TOPIC, 1000, Duration.ofMillis(1)).size();
            assertThat(got).isPositive();
            leased += got;
        }
        Thread.sleep(20);
        // Each reservation reaps up to 1000 expired leases per shard.
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            hourglass.reserve(TOPIC, 1, null);
            return hourglass.stats(TOPIC).dead() == n;
        });
    }

    /** Every job of the state, page after page. */
    static List<JobSummary> walk(Inspector inspector, JobState state, int limit) {
        List<JobSummary> all = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JobPage page = inspector.jobs(TOPIC, state, cursor, limit);
            assertThat(page.jobs()).hasSizeLessThanOrEqualTo(limit);
            all.addAll(page.jobs());
            cursor = page.nextCursor();
            assertThat(++pages).as("pages").isLessThan(1000);
        } while (cursor != null);
        return all;
    }

    static final Comparator<JobSummary> BY_DUE_THEN_ID =
            Comparator.comparing(JobSummary::dueAt).thenComparing(JobSummary::id);

    @Test
    void theOverviewCountsEachStateAndTellsLatencyAndNextDueTime(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        killAll(hourglass, "dead");
        Instant inAnHour = hourglass
                .schedule(job("later").delay(Duration.ofHours(1)).build())
                .dueAt();
        hourglass.schedule(job("much-later").delay(Duration.ofHours(2)).build());
        hourglass.schedule(job("taken").runAt(Instant.now().minusSeconds(60)).build());
        assertThat(hourglass.reserve(TOPIC, 1, null)).extracting(Delivery::id).containsExactly("taken");
        hourglass.schedule(job("late").runAt(Instant.now().minusSeconds(5)).build());
        hourglass.schedule(job("less-late").runAt(Instant.now().minusSeconds(1)).build());

        TopicOverview overview = inspector.topic(TOPIC);
        assertThat(overview.topic()).isEqualTo(TOPIC);
        assertThat(List.of(overview.scheduled(), overview.ready(), overview.active(), overview.dead()))
                .containsExactly(2L, 2L, 1L, 1L);
        assertThat(overview.paused()).isFalse();
        assertThat(overview.latency()).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(30));
        assertThat(overview.nextDueAt()).isEqualTo(inAnHour);
        assertThat(inspector.topics()).extracting(TopicOverview::topic).containsExactly(TOPIC);
        assertThat(inspector.topics().get(0).scheduled()).isEqualTo(2);

        TopicOverview unused = inspector.topic("never-used");
        assertThat(unused).isEqualTo(new TopicOverview("never-used", 0, 0, 0, 0, false, Duration.ZERO, null, 0, 0));
    }

    @Test
    void pagesWalkEveryJobOnceInOrderAcrossShards(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        Instant base = Instant.now().plus(Duration.ofHours(1));
        List<JobRequest> requests = new ArrayList<>();
        for (int i = 0; i < 57; i++) {
            // Seven due times, so most jobs tie on theirs with others, on the same shard and on others.
            requests.add(job("s" + i).runAt(base.plusMillis(1000L * (i % 7))).build());
        }
        for (int i = 0; i < 23; i++) {
            requests.add(job("r" + i).runAt(Instant.now().minusSeconds(i % 4)).build());
        }
        scheduleAll(hourglass, requests);

        for (int limit : new int[] {1, 5, 10, 100}) {
            List<JobSummary> scheduled = walk(inspector, JobState.SCHEDULED, limit);
            assertThat(scheduled).as("limit %d", limit).hasSize(57).isSortedAccordingTo(BY_DUE_THEN_ID);
            assertThat(scheduled)
                    .extracting(JobSummary::id)
                    .doesNotHaveDuplicates()
                    .allMatch(id -> id.startsWith("s"));
            assertThat(scheduled).allMatch(j -> j.state() == JobState.SCHEDULED);
        }
        List<JobSummary> ready = walk(inspector, JobState.READY, 4);
        assertThat(ready).hasSize(23).isSortedAccordingTo(BY_DUE_THEN_ID);
        assertThat(ready).extracting(JobSummary::id).doesNotHaveDuplicates().allMatch(id -> id.startsWith("r"));
        assertThat(inspector.jobs(TOPIC, JobState.ACTIVE, null, 10)).isEqualTo(new JobPage(List.of(), null));
    }

    @Test
    void aPageGoesOnAfterItsLastJobLeftTheState(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        Instant due = Instant.now().plus(Duration.ofHours(1));
        List<JobRequest> requests = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            // One due time for all: only the ids order them, on every shard.
            requests.add(job(String.format("t%02d", i)).runAt(due).build());
        }
        scheduleAll(hourglass, requests);
        JobPage first = inspector.jobs(TOPIC, JobState.SCHEDULED, null, 10);
        assertThat(first.jobs())
                .extracting(JobSummary::id)
                .containsExactly("t00", "t01", "t02", "t03", "t04", "t05", "t06", "t07", "t08", "t09");
        // The cursor's job is gone: the next page is found by its due time and id alone.
        assertThat(hourglass.cancel(TOPIC, "t09")).isTrue();
        assertThat(hourglass.cancel(TOPIC, "t10")).isTrue();
        JobPage second = inspector.jobs(TOPIC, JobState.SCHEDULED, first.nextCursor(), 5);
        assertThat(second.jobs()).extracting(JobSummary::id).containsExactly("t11", "t12", "t13", "t14", "t15");
    }

    @Test
    void eachJobShowsItsFieldsAndAPayloadPreview(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        killAll(hourglass, "dead");
        // One ASCII byte, then two-byte characters: the 256-byte preview cuts the 128th character in half.
        String text = "x" + "é".repeat(500);
        hourglass.schedule(JobRequest.builder(TOPIC)
                .id("text")
                .payload(text)
                .maxAttempts(7)
                .build());
        byte[] binary = new byte[300];
        Arrays.fill(binary, (byte) 0xff);
        hourglass.schedule(JobRequest.builder(TOPIC)
                .id("binary")
                .payload(binary)
                .delay(Duration.ofHours(1))
                .build());

        JobSummary ready =
                inspector.jobs(TOPIC, JobState.READY, null, 10).jobs().get(0);
        assertThat(ready.id()).isEqualTo("text");
        assertThat(ready.payloadBytes()).isEqualTo(1001);
        assertThat(ready.payloadPreview()).hasSize(Inspector.PREVIEW_BYTES);
        assertThat(ready.payloadPreviewText()).isEqualTo("x" + "é".repeat(127));
        assertThat(ready.attempt()).isZero();
        assertThat(ready.maxAttempts()).isEqualTo(7);
        assertThat(ready.leaseUntil()).isNull();
        assertThat(ready.diedAt()).isNull();
        assertThat(ready.lastError()).isNull();

        JobSummary scheduled =
                inspector.jobs(TOPIC, JobState.SCHEDULED, null, 10).jobs().get(0);
        assertThat(scheduled.payloadBytes()).isEqualTo(300);
        assertThat(scheduled.payloadPreview()).hasSize(256).containsOnly((byte) 0xff);
        assertThat(scheduled.payloadPreviewText()).isNull();

        Delivery d = hourglass.reserve(TOPIC, 1, Duration.ofMinutes(1)).get(0);
        JobSummary active =
                inspector.jobs(TOPIC, JobState.ACTIVE, null, 10).jobs().get(0);
        assertThat(active.id()).isEqualTo("text");
        assertThat(active.attempt()).isEqualTo(1);
        assertThat(active.leaseUntil()).isEqualTo(d.leaseUntil());
        assertThat(active.dueAt()).isEqualTo(d.dueAt());

        JobSummary dead = inspector.jobs(TOPIC, JobState.DEAD, null, 10).jobs().get(0);
        assertThat(dead.id()).isEqualTo("dead");
        assertThat(dead.lastError()).isEqualTo("boom dead");
        assertThat(dead.attempt()).isEqualTo(1);
        assertThat(dead.diedAt())
                .isBetween(Instant.now().minusSeconds(30), Instant.now().plusSeconds(1));
        assertThat(dead.payloadPreviewText()).isEqualTo("payload-dead");
        assertThat(dead.payloadBytes()).isEqualTo("payload-dead".length());
    }

    @Test
    void theHistoryCountsAcksAndFailuresPerMinute(HourglassFactory factory) throws InterruptedException {
        Hourglass hourglass = factory.create();
        Inspector inspector = hourglass.inspector();
        assertThat(inspector.history(TOPIC)).isEmpty();
        for (String id : List.of("a", "b", "c", "d")) {
            hourglass.schedule(job(id).build());
        }
        for (Delivery d : hourglass.reserve(TOPIC, 4, null)) {
            if (d.id().equals("d")) {
                hourglass.nack(TOPIC, "d", d.receipt(), "no", Duration.ofHours(1));
            } else {
                hourglass.ack(TOPIC, d.id(), d.receipt());
            }
        }
        hourglass.schedule(job("e").build());
        assertThat(hourglass.reserve(TOPIC, 1, Duration.ofMillis(1))).hasSize(1);
        Thread.sleep(20);
        // This reservation reaps e's expired lease (a failure) and takes it again.
        List<Delivery> again = hourglass.reserve(TOPIC, 1, null);
        assertThat(again).extracting(Delivery::id).containsExactly("e");
        hourglass.ack(TOPIC, "e", again.get(0).receipt());
        // A worker's acks, by ack.lua or carried by its claims.
        AtomicInteger handled = new AtomicInteger();
        hourglass.subscribe(
                TOPIC,
                job -> handled.incrementAndGet(),
                WorkerOptions.builder().concurrency(2).build());
        for (int i = 0; i < 6; i++) {
            hourglass.schedule(job("w" + i).build());
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> hourglass.stats(TOPIC).ready() == 0
                        && hourglass.stats(TOPIC).active() == 0);

        Function<List<HistoryMinute>, long[]> sum = minutes -> new long[] {
            minutes.stream().mapToLong(HistoryMinute::processed).sum(),
            minutes.stream().mapToLong(HistoryMinute::failed).sum()
        };
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(sum.apply(inspector.history(TOPIC)))
                .containsExactly(10, 2));
        List<HistoryMinute> history = inspector.history(TOPIC);
        assertThat(history).hasSizeBetween(1, 2).isSortedAccordingTo(Comparator.comparing(HistoryMinute::minute));
        for (HistoryMinute m : history) {
            assertThat(m.minute().toEpochMilli() % 60_000).isZero();
            assertThat(m.minute()).isBetween(Instant.now().minusSeconds(120), Instant.now());
        }
        assertThat(inspector.history("never-used")).isEmpty();
    }

    @Test
    void theHistoryKeepsADayAndDeletesOlderMinutesWhenANewOneBegins(HourglassFactory factory) {
        Hourglass hourglass = factory.create();
        hourglass.schedule(job("h1").build());
        Delivery first = hourglass.reserve(TOPIC, 1, null).get(0);
        hourglass.ack(TOPIC, "h1", first.receipt());
        String key = StorageFormat.shardKeyPrefix(
                        factory.namespace(), TOPIC, StorageFormat.shardOf("h1", hourglass.shards()))
                + "history";
        withRawRedis(factory, redis -> {
            long minute = Long.parseLong(redis.hget(key, "t"));
            // As if the last count was a minute ago, a day's worth of minutes back from then, plus a field that a
            // clock set back might have left outside the window.
            redis.hdel(key, "p:" + minute);
            redis.hset(
                    key,
                    Map.of(
                            "t",
                            Long.toString(minute - 1),
                            "p:" + (minute - 1),
                            "2",
                            "p:" + (minute - 1439),
                            "7",
                            "f:" + (minute - 1440),
                            "9",
                            "p:" + (minute - 5000),
                            "100"));
            String sameShard = IntStream.range(0, 1000)
                    .mapToObj(i -> "h2-" + i)
                    .filter(id -> StorageFormat.shardOf(id, hourglass.shards())
                            == StorageFormat.shardOf("h1", hourglass.shards()))
                    .findFirst()
                    .orElseThrow();
            hourglass.schedule(job(sameShard).build());
            Delivery second = hourglass.reserve(TOPIC, 1, null).get(0);
            hourglass.ack(TOPIC, sameShard, second.receipt());
            // The new minute's first count deleted the minute that left the window; the next minute would delete the
            // one after it.
            long now = Long.parseLong(redis.hget(key, "t"));
            assertThat(now).isGreaterThanOrEqualTo(minute);
            assertThat(redis.hexists(key, "f:" + (minute - 1440))).isFalse();
            assertThat(redis.hexists(key, "p:" + (minute - 1439))).isEqualTo(now == minute);
            assertThat(redis.hget(key, "p:" + now)).isEqualTo("1");
        });
        List<HistoryMinute> history = hourglass.inspector().history(TOPIC);
        assertThat(history).extracting(HistoryMinute::processed).doesNotContain(100L, 9L);
        assertThat(history).extracting(HistoryMinute::processed).contains(2L, 1L);
    }

    /** Runs {@code commands} on a plain connection to the test's Redis (its cluster, when it has one). */
    void withRawRedis(HourglassFactory factory, Consumer<RedisClusterCommands<String, String>> commands) {
        RawRedis.onTestRedis(getClass(), factory, redis -> {
            commands.accept(redis);
            return null;
        });
    }

    @Test
    void pauseStopsTheClaimsOfARunningWorkerAndResumeRestartsThemAtOnce(HourglassFactory factory)
            throws InterruptedException {
        // No sweep within the test: after the pause, only the wake signal of the resume can restart the worker.
        Hourglass hourglass = factory.create(b -> b.sweepInterval(Duration.ofHours(1)));
        Inspector inspector = hourglass.inspector();
        List<String> handled = new java.util.concurrent.CopyOnWriteArrayList<>();
        hourglass.subscribe(
                TOPIC,
                job -> handled.add(job.id()),
                WorkerOptions.builder().concurrency(4).build());
        hourglass.schedule(job("before").build());
        await().atMost(Duration.ofSeconds(5)).until(() -> handled.contains("before"));

        inspector.pause(TOPIC);
        inspector.pause(TOPIC);
        assertThat(inspector.topic(TOPIC).paused()).isTrue();
        for (int i = 0; i < 5; i++) {
            // Scheduling is still accepted, and wakes the worker, whose claims now get nothing.
            hourglass.schedule(job("p" + i).build());
        }
        assertThat(hourglass.reserve(TOPIC, 10, null))
                .as("a pull reservation while paused")
                .isEmpty();
        Thread.sleep(700);
        assertThat(handled).containsExactly("before");
        assertThat(hourglass.stats(TOPIC).ready()).isEqualTo(5);

        inspector.resume(TOPIC);
        await().atMost(Duration.ofSeconds(3)).until(() -> handled.size() == 6);
        assertThat(inspector.topic(TOPIC).paused()).isFalse();
        inspector.resume(TOPIC);
    }

    @Test
    void pauseAlsoStopsCallbackDeliveryUntilResumed(HourglassFactory factory) throws Exception {
        List<String> posted = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", exchange -> {
            posted.add(exchange.getRequestHeaders().getFirst("Hourglass-Job-Id"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try {
            // The receiver listens on 127.0.0.1, which callbacks may reach only when allowed.
            Hourglass hourglass =
                    factory.create(b -> b.sweepInterval(Duration.ofHours(1)).callbackAllowList(List.of("127.0.0.1")));
            Inspector inspector = hourglass.inspector();
            inspector.pause(TOPIC);
            hourglass.startCallbackDelivery(CallbackOptions.defaults());
            URI url = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
            for (int i = 0; i < 3; i++) {
                hourglass.schedule(job("cb" + i).callbackUrl(url).build());
            }
            Thread.sleep(700);
            assertThat(posted).isEmpty();
            assertThat(inspector.topic(TOPIC).ready()).isEqualTo(3);

            inspector.resume(TOPIC);
            await().atMost(Duration.ofSeconds(3)).until(() -> posted.size() == 3);
            assertThat(posted).containsExactlyInAnyOrder("cb0", "cb1", "cb2");
            await().atMost(Duration.ofSeconds(2))
                    .until(() -> inspector.topic(TOPIC).active() == 0);
        } finally {
            receiver.stop(0);
        }
    }

    @Test
    void runNowMakesAScheduledJobDueAndRefusesActiveAndDeadJobs(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        hourglass.schedule(job("later").delay(Duration.ofHours(1)).build());
        Instant before = Instant.now();
        assertThat(inspector.runNow(TOPIC, "later")).isEqualTo(RunNowOutcome.MADE_READY);
        JobInfo info = hourglass.get(TOPIC, "later").orElseThrow();
        assertThat(info.state()).isEqualTo(JobState.READY);
        assertThat(info.dueAt()).isBetween(before.minusSeconds(1), Instant.now().plusSeconds(1));
        assertThat(inspector.runNow(TOPIC, "later")).isEqualTo(RunNowOutcome.ALREADY_READY);
        assertThat(hourglass.get(TOPIC, "later").orElseThrow().dueAt()).isEqualTo(info.dueAt());

        Delivery d = hourglass.reserve(TOPIC, 1, null).get(0);
        assertThat(inspector.runNow(TOPIC, "later")).isEqualTo(RunNowOutcome.ACTIVE);
        assertThat(hourglass.get(TOPIC, "later").orElseThrow().leaseUntil()).isEqualTo(d.leaseUntil());
        killAll(hourglass, "dead");
        assertThat(inspector.runNow(TOPIC, "dead")).isEqualTo(RunNowOutcome.DEAD);
        assertThat(hourglass.get(TOPIC, "dead").orElseThrow().state()).isEqualTo(JobState.DEAD);
        assertThat(inspector.runNow(TOPIC, "nope")).isEqualTo(RunNowOutcome.NOT_FOUND);
    }

    @Test
    void deadLettersAreRequeuedOrDeletedByIdOrAll(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        killAll(hourglass, "d0", "d1", "d2", "d3", "d4", "d5");
        hourglass.schedule(job("alive").delay(Duration.ofHours(1)).build());

        assertThat(inspector.requeueDead(TOPIC, List.of("d0", "d1", "d0", "nope", "alive")))
                .isEqualTo(2);
        assertThat(inspector.deleteDead(TOPIC, List.of("d2", "d3", "d0", "nope")))
                .isEqualTo(2);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 1, 2, 0, 2));
        assertThat(hourglass.get(TOPIC, "d2")).isEmpty();
        JobInfo requeued = hourglass.get(TOPIC, "d0").orElseThrow();
        assertThat(requeued.state()).isEqualTo(JobState.READY);
        assertThat(requeued.attempt()).isZero();

        assertThat(inspector.requeueAllDead(TOPIC)).isEqualTo(2);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 1, 4, 0, 0));
        assertThat(inspector.requeueAllDead(TOPIC)).isZero();
        assertThat(hourglass.reserve(TOPIC, 10, null))
                .extracting(Delivery::id)
                .containsExactlyInAnyOrder("d0", "d1", "d4", "d5");
    }

    @Test
    void bulkActionsWorkThroughBacklogsLargerThanAChunk(Hourglass hourglass) throws InterruptedException {
        Inspector inspector = hourglass.inspector();
        expireAll(hourglass, "x", 1100);
        assertThat(inspector.requeueAllDead(TOPIC)).isEqualTo(1100);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 1100, 0, 0));
        assertThat(inspector.purge(TOPIC, JobState.READY)).isEqualTo(1100);
        expireAll(hourglass, "y", 1100);
        assertThat(inspector.deleteAllDead(TOPIC)).isEqualTo(1100);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
    }

    @Test
    void purgeDeletesTheJobsOfOneStateOnly(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        for (int i = 0; i < 3; i++) {
            hourglass.schedule(job("s" + i).delay(Duration.ofHours(1)).build());
        }
        killAll(hourglass, "dead");
        for (int i = 0; i < 6; i++) {
            hourglass.schedule(job("r" + i).build());
        }
        List<Delivery> active = hourglass.reserve(TOPIC, 2, null);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 3, 4, 2, 1));

        assertThat(inspector.purge(TOPIC, JobState.SCHEDULED)).isEqualTo(3);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 4, 2, 1));
        assertThat(inspector.purge(TOPIC, JobState.READY)).isEqualTo(4);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 2, 1));
        assertThat(inspector.purge(TOPIC, JobState.ACTIVE)).isEqualTo(2);
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 1));
        Delivery d = active.get(0);
        assertThatThrownBy(() -> hourglass.ack(TOPIC, d.id(), d.receipt())).isInstanceOf(StaleReceiptException.class);
        assertThat(inspector.purge(TOPIC, JobState.DEAD)).isEqualTo(1);
        assertThat(inspector.purge(TOPIC, JobState.DEAD)).isZero();
        assertThat(hourglass.stats(TOPIC)).isEqualTo(new TopicStats(TOPIC, 0, 0, 0, 0));
    }

    @Test
    void badInputIsRefusedNamingTheFieldAndChangesNothing(Hourglass hourglass) {
        Inspector inspector = hourglass.inspector();
        killAll(hourglass, "dead");
        hourglass.schedule(job("later").delay(Duration.ofHours(1)).build());
        TopicStats before = hourglass.stats(TOPIC);
        String cursorOfScheduled =
                inspector.jobs(TOPIC, JobState.SCHEDULED, null, 1).nextCursor();

        assertRefused(() -> inspector.topic("no spaces"), "topic");
        assertRefused(() -> inspector.topic(null), "topic");
        assertRefused(() -> inspector.jobs("{x}", JobState.READY, null, 10), "topic");
        assertRefused(() -> inspector.jobs(TOPIC, null, null, 10), "state");
        assertRefused(() -> inspector.jobs(TOPIC, JobState.READY, null, 0), "limit");
        assertRefused(() -> inspector.jobs(TOPIC, JobState.READY, null, Inspector.MAX_PAGE + 1), "limit");
        assertRefused(() -> inspector.jobs(TOPIC, JobState.READY, "not a cursor", 10), "cursor");
        assertRefused(() -> inspector.jobs(TOPIC, JobState.READY, "", 10), "cursor");
        if (cursorOfScheduled != null) {
            assertRefused(() -> inspector.jobs(TOPIC, JobState.DEAD, cursorOfScheduled, 10), "cursor");
        }
        assertRefused(() -> inspector.history("a/b"), "topic");
        assertRefused(() -> inspector.pause(""), "topic");
        assertRefused(() -> inspector.resume("x y"), "topic");
        assertRefused(() -> inspector.runNow(TOPIC, "a b"), "id");
        assertRefused(() -> inspector.runNow(TOPIC, null), "id");
        assertRefused(() -> inspector.requeueDead(TOPIC, List.of()), "ids");
        assertRefused(() -> inspector.requeueDead(TOPIC, null), "ids");
        assertRefused(() -> inspector.requeueDead(TOPIC, Arrays.asList("dead", null)), "ids");
        assertRefused(() -> inspector.deleteDead(TOPIC, List.of("dead", "bad id")), "id");
        assertRefused(() -> inspector.deleteAllDead("bad topic"), "topic");
        assertRefused(() -> inspector.requeueAllDead("bad topic"), "topic");
        assertRefused(() -> inspector.purge(TOPIC, null), "state");
        assertRefused(() -> inspector.purge("bad topic", JobState.DEAD), "topic");

        assertThat(hourglass.stats(TOPIC)).isEqualTo(before);
        assertThat(inspector.topic(TOPIC).paused()).isFalse();
    }

    static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String field) {
        assertThatThrownBy(call).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith(field + ":");
    }
}
