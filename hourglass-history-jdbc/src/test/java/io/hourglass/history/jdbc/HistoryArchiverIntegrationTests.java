package io.hourglass.history.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.JobRequest;
import io.hourglass.OnExpiry;
import io.hourglass.StorageFormat;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.PostgresProcess;
import io.hourglass.testkit.PostgresTest;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.Consumer;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

@RedisTest(shards = 2)
@PostgresTest
class HistoryArchiverIntegrationTests {
    private static final int SHARDS = 2;
    private static final String ORDERS = "orders";
    private static final String LEASES = "leases";
    private static final String OFFERS = "offers";
    private static final String TRIMS = "trims";

    private final DataSource dataSource;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private RedisCommands<String, String> redis;

    HistoryArchiverIntegrationTests(PostgresProcess postgres) {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setUrl(postgres.jdbcUrl());
        source.setUser(postgres.user());
        this.dataSource = source;
    }

    @BeforeEach
    void connectAndEmptyTheHistory(HourglassFactory factory) throws SQLException {
        client = RedisClient.create(factory.redisUri());
        connection = client.connect();
        redis = connection.sync();
        new HistoryStore(dataSource).migrate();
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute("TRUNCATE " + HistoryStore.TABLE);
        }
    }

    @AfterEach
    void disconnect() {
        connection.close();
        client.shutdown();
    }

    @Test
    void everyOutcomeIsArchivedExactlyOnceAcrossAReaderAndAnArchiverThatDieBeforeTheirAck(HourglassFactory factory)
            throws Exception {
        Hourglass hourglass = factory.create(b -> trimmingToOnePerShard(b).historyEvents(10_000, 64));
        endOneJobOfEachOutcome(hourglass);

        // A reader that takes events and dies before it writes them.
        for (String key : eventStreams(factory.namespace())) {
            makeGroup(key);
            redis.xreadgroup(
                    Consumer.from(HistoryArchiver.DEFAULT_GROUP, "dead-reader"),
                    XReadArgs.Builder.count(2),
                    XReadArgs.StreamOffset.lastConsumed(key));
        }
        assertThat(pendingEvents(factory.namespace())).isPositive();

        // An archiver that commits a batch and dies before its XACK.
        try (HistoryArchiver first = archiver(factory, "first", Duration.ofHours(1), 3)) {
            first.beforeAck = () -> {
                throw new IllegalStateException("killed before the ack");
            };
            assertThatThrownBy(first::archiveOnce).hasMessageContaining("killed before the ack");
        }
        assertThat(rows()).isPositive();

        try (HistoryArchiver second = archiver(factory, "second", Duration.ZERO, 3)) {
            assertThat(second.archiveOnce()).isPositive();
            assertThat(second.archiveOnce()).isZero();
        }
        assertThat(pendingEvents(factory.namespace())).isZero();

        Map<String, List<HistoryEntry>> byJob = all().stream().collect(Collectors.groupingBy(HistoryEntry::jobId));
        // A dead letter later trimmed ended twice: dead, then trimmed. Every event is one row, however often read.
        assertThat(byJob.get("trimmed"))
                .extracting(HistoryEntry::outcome)
                .containsExactlyInAnyOrder(HistoryOutcome.DEAD, HistoryOutcome.TRIMMED);
        HistoryEntry trim = byJob.remove("trimmed").stream()
                .filter(e -> e.outcome() == HistoryOutcome.TRIMMED)
                .findFirst()
                .orElseThrow();
        assertThat(trim.lastError()).isEqualTo("failed trimmed");
        assertThat(trim.attempts()).isEqualTo(1);
        assertThat(trim.topic()).isEqualTo(TRIMS);
        assertThat(byJob).allSatisfy((id, rows) -> assertThat(rows).as(id).hasSize(1));
        Map<String, HistoryEntry> entries = byJob.values().stream()
                .map(rows -> rows.get(0))
                .collect(Collectors.toMap(HistoryEntry::jobId, Function.identity()));
        Map<String, HistoryOutcome> outcomes = new HashMap<>();
        entries.forEach((id, e) -> outcomes.put(id, e.outcome()));
        Map<String, HistoryOutcome> expected = new HashMap<>();
        for (int i = 0; i < 6; i++) {
            expected.put("ok-" + i, HistoryOutcome.ACKED);
        }
        expected.put("big", HistoryOutcome.ACKED);
        expected.put("failed", HistoryOutcome.DEAD);
        expected.put("reaped", HistoryOutcome.DEAD);
        expected.put("cancelled", HistoryOutcome.CANCELLED);
        expected.put("expired", HistoryOutcome.EXPIRED);
        expected.put("dropped", HistoryOutcome.EXPIRED);
        expected.put(survivor(), HistoryOutcome.DEAD);
        assertThat(outcomes).isEqualTo(expected);

        HistoryEntry ok = entries.get("ok-3");
        assertThat(ok.topic()).isEqualTo(ORDERS);
        assertThat(ok.attempts()).isEqualTo(1);
        assertThat(ok.lastError()).isNull();
        assertThat(new String(ok.payload(), StandardCharsets.UTF_8)).isEqualTo("{\"n\":3}");
        assertThat(ok.completedAt()).isAfterOrEqualTo(ok.dueAt());
        assertThat(entries.get("big").payload()).isNull();
        assertThat(entries.get("big").payloadBytes()).isEqualTo(100);
        assertThat(entries.get("failed").lastError()).isEqualTo("boom");
        assertThat(entries.get("failed").attempts()).isEqualTo(1);
        assertThat(entries.get("failed").maxAttempts()).isEqualTo(3);
        assertThat(entries.get("reaped").topic()).isEqualTo(LEASES);
        assertThat(entries.get("reaped").lastError()).isEqualTo("lease expired on attempt 1");
        assertThat(entries.get("cancelled").attempts()).isZero();
        assertThat(entries.get("expired").lastError()).isEqualTo("expired");
        assertThat(entries.get("expired").topic()).isEqualTo(OFFERS);
        assertThat(entries.get("dropped").attempts()).isZero();
    }

    @Test
    void withHistoryOffTheScriptsWriteNoEvent(HourglassFactory factory) throws Exception {
        endOneJobOfEachOutcome(factory.create(HistoryArchiverIntegrationTests::trimmingToOnePerShard));

        assertThat(redis.keys("*:events")).isEmpty();
        try (HistoryArchiver archiver = archiver(factory, "only", Duration.ZERO, 100)) {
            assertThat(archiver.archiveOnce()).isZero();
        }
        assertThat(rows()).isZero();
    }

    @Test
    void theLoopArchivesWhatArrivesWhileItRuns(HourglassFactory factory) throws Exception {
        Hourglass hourglass = factory.create(b -> b.historyEvents(10_000, 0));
        try (HistoryArchiver archiver = archiver(factory, "looping", Duration.ZERO, 100)) {
            archiver.start();
            hourglass.schedule(JobRequest.builder(ORDERS)
                    .id("late")
                    .delay(Duration.ofHours(1))
                    .build());
            hourglass.cancel(ORDERS, "late");
            // A worker's acks travel with its next claims (claim.lua) or in ack batches (ack.lua).
            hourglass.subscribe(ORDERS, job -> {});
            for (int i = 0; i < 20; i++) {
                hourglass.schedule(
                        JobRequest.builder(ORDERS).id("w-" + i).payload("p").build());
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> rows() == 21);
        }
        Map<HistoryOutcome, Long> outcomes =
                all().stream().collect(Collectors.groupingBy(HistoryEntry::outcome, Collectors.counting()));
        assertThat(outcomes)
                .containsOnly(Map.entry(HistoryOutcome.ACKED, 20L), Map.entry(HistoryOutcome.CANCELLED, 1L));
        assertThat(all()).allSatisfy(e -> assertThat(e.payload()).isNull());
    }

    @Test
    void withPostgresDownTheQueueWorksAndTheArchiverCatchesUpWhenItComesBack(
            HourglassFactory factory, PostgresProcess postgres) throws Exception {
        Hourglass hourglass = factory.create(b -> b.historyEvents(10_000, 0));
        try (HistoryArchiver archiver = HistoryArchiver.builder()
                .redisUri(factory.redisUri())
                .namespace(factory.namespace(), SHARDS)
                .jdbc(postgres.jdbcUrl(), postgres.user(), null)
                .consumer(HistoryArchiver.DEFAULT_GROUP, "pooled")
                .pollInterval(Duration.ofMillis(20))
                .build()) {
            archiver.start();
            hourglass.subscribe(ORDERS, job -> {});
            hourglass.schedule(JobRequest.builder(ORDERS).id("before").build());
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> rows() == 1);

            postgres.stop();
            try {
                for (int i = 0; i < 10; i++) {
                    hourglass.schedule(
                            JobRequest.builder(ORDERS).id("while-down-" + i).build());
                }
                org.awaitility.Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> hourglass.stats(ORDERS).equals(new io.hourglass.TopicStats(ORDERS, 0, 0, 0, 0)));
                assertThat(streamedEvents(factory.namespace())).isEqualTo(11);
            } finally {
                postgres.start();
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> rows() == 11);
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> pendingEvents(factory.namespace()) == 0);
        }
        assertThat(all())
                .extracting(HistoryEntry::jobId)
                .doesNotHaveDuplicates()
                .hasSize(11);
    }

    @Test
    void eventsTheCapDroppedBeforeTheyWereReadAreCountedAndTheRestArchived(HourglassFactory factory) throws Exception {
        Hourglass hourglass = factory.create(b -> b.historyEvents(1, 0));
        for (int i = 0; i < 600; i++) {
            hourglass.schedule(JobRequest.builder(ORDERS)
                    .id("c-" + i)
                    .delay(Duration.ofHours(1))
                    .build());
            hourglass.cancel(ORDERS, "c-" + i);
        }
        // MAXLEN ~ trims whole stream nodes (100 entries by default), so most, not all but one, were dropped.
        assertThat(streamedEvents(factory.namespace())).isLessThan(600);

        try (HistoryArchiver archiver = archiver(factory, "late", Duration.ZERO, 100)) {
            long archived = archiver.archiveOnce();
            assertThat(archiver.droppedEvents()).isPositive();
            assertThat(archived + archiver.droppedEvents()).isEqualTo(600);
        }
        assertThat(rows()).isEqualTo(streamedEvents(factory.namespace()));
    }

    @Test
    void aBatchOfAcksIsOneEntryArchivedAsOneRowPerJobExactlyOnce(HourglassFactory factory) throws Exception {
        Hourglass hourglass = factory.create(b -> b.historyEvents(10_000, 16));
        List<String> ids = IntStream.range(0, 200)
                .mapToObj(i -> "batch-" + i)
                .filter(id -> StorageFormat.shardOf(id, SHARDS) == 0)
                .limit(40)
                .toList();
        for (String id : ids) {
            hourglass.schedule(
                    JobRequest.builder(ORDERS).id(id).payload("p-" + id).build());
        }
        List<Delivery> deliveries = hourglass.reserve(ORDERS, 100, Duration.ofSeconds(30));
        assertThat(deliveries).hasSize(ids.size());
        // One call of the ack script for all of them, as a worker's batcher sends a batch of its acks.
        String prefix = StorageFormat.shardKeyPrefix(factory.namespace(), ORDERS, 0);
        List<String> args =
                new ArrayList<>(List.of("hg:{" + factory.namespace() + "}:wake:" + ORDERS, "0/10000/16", "0"));
        for (Delivery d : deliveries) {
            args.add(d.id());
            args.add(d.receipt());
        }
        List<String> outcomes = redis.eval(
                new String(StorageFormat.scriptSource("ack"), StandardCharsets.UTF_8),
                ScriptOutputType.MULTI,
                StorageFormat.shardKeySuffixes().stream().map(k -> prefix + k).toArray(String[]::new),
                args.toArray(String[]::new));
        assertThat(outcomes).hasSize(ids.size()).containsOnly("OK");
        List<StreamMessage<String, String>> stream = redis.xrange(prefix + "events", Range.create("-", "+"));
        assertThat(stream).hasSize(1);
        assertThat(stream.get(0).getBody()).containsEntry("count", Integer.toString(ids.size()));

        // Written, then the archiver dies before its XACK; another takes the entry over and writes it again.
        try (HistoryArchiver first = archiver(factory, "first", Duration.ofHours(1), 10)) {
            first.beforeAck = () -> {
                throw new IllegalStateException("killed before the ack");
            };
            assertThatThrownBy(first::archiveOnce).hasMessageContaining("killed before the ack");
        }
        assertThat(rows()).isEqualTo(ids.size());
        try (HistoryArchiver second = archiver(factory, "second", Duration.ZERO, 10)) {
            assertThat(second.archiveOnce()).isEqualTo(ids.size());
            assertThat(second.archiveOnce()).isZero();
        }
        assertThat(pendingEvents(factory.namespace())).isZero();
        List<HistoryEntry> rows = all();
        assertThat(rows).extracting(HistoryEntry::jobId).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(rows)
                .extracting(HistoryEntry::eventId)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, ids.size())
                        .mapToObj(k -> stream.get(0).getId() + "/" + k)
                        .toList());
        assertThat(rows).allSatisfy(e -> {
            assertThat(e.outcome()).isEqualTo(HistoryOutcome.ACKED);
            assertThat(e.attempts()).isEqualTo(1);
            assertThat(e.maxAttempts()).isEqualTo(10);
            assertThat(e.lastError()).isNull();
            assertThat(e.callbackUrl()).isNull();
            assertThat(new String(e.payload(), StandardCharsets.UTF_8)).isEqualTo("p-" + e.jobId());
            assertThat(e.payloadBytes()).isEqualTo(("p-" + e.jobId()).length());
        });
    }

    @Test
    void oneEventEntriesOfTheEarlierFormatStillInAStreamAreArchivedBesideTheNewOnes(HourglassFactory factory)
            throws Exception {
        Hourglass hourglass = factory.create(b -> b.historyEvents(10_000, 0));
        String id = IntStream.range(0, 100)
                .mapToObj(i -> "new-" + i)
                .filter(i -> StorageFormat.shardOf(i, SHARDS) == 0)
                .findFirst()
                .orElseThrow();
        String stream = StorageFormat.shardKeyPrefix(factory.namespace(), ORDERS, 0) + "events";
        // As the scripts wrote them before an entry held a call's events: one entry per event, a field per value.
        String acked = redis.xadd(
                stream,
                Map.of(
                        "id",
                        "old-acked",
                        "outcome",
                        "ACKED",
                        "attempts",
                        "1",
                        "maxAttempts",
                        "10",
                        "due",
                        "1000",
                        "at",
                        "2000",
                        "payloadBytes",
                        "3",
                        "payload",
                        "abc"));
        String dead = redis.xadd(
                stream,
                Map.of(
                        "id",
                        "old-dead",
                        "outcome",
                        "DEAD",
                        "attempts",
                        "3",
                        "maxAttempts",
                        "3",
                        "due",
                        "1500",
                        "at",
                        "2500",
                        "payloadBytes",
                        "0",
                        "error",
                        "boom",
                        "callbackUrl",
                        "https://example.com/h"));
        hourglass.schedule(
                JobRequest.builder(ORDERS).id(id).delay(Duration.ofHours(1)).build());
        assertThat(hourglass.cancel(ORDERS, id)).isTrue();

        try (HistoryArchiver archiver = archiver(factory, "upgraded", Duration.ZERO, 100)) {
            assertThat(archiver.archiveOnce()).isEqualTo(3);
        }
        Map<String, HistoryEntry> byId =
                all().stream().collect(Collectors.toMap(HistoryEntry::jobId, Function.identity()));
        assertThat(byId).containsOnlyKeys("old-acked", "old-dead", id);
        HistoryEntry oldAcked = byId.get("old-acked");
        assertThat(oldAcked.eventId()).isEqualTo(acked);
        assertThat(oldAcked.outcome()).isEqualTo(HistoryOutcome.ACKED);
        assertThat(oldAcked.dueAt()).isEqualTo(Instant.ofEpochMilli(1000));
        assertThat(oldAcked.completedAt()).isEqualTo(Instant.ofEpochMilli(2000));
        assertThat(new String(oldAcked.payload(), StandardCharsets.UTF_8)).isEqualTo("abc");
        HistoryEntry oldDead = byId.get("old-dead");
        assertThat(oldDead.eventId()).isEqualTo(dead);
        assertThat(oldDead.outcome()).isEqualTo(HistoryOutcome.DEAD);
        assertThat(oldDead.attempts()).isEqualTo(3);
        assertThat(oldDead.lastError()).isEqualTo("boom");
        assertThat(oldDead.callbackUrl()).isEqualTo("https://example.com/h");
        assertThat(oldDead.payload()).isNull();
        HistoryEntry cancelled = byId.get(id);
        assertThat(cancelled.outcome()).isEqualTo(HistoryOutcome.CANCELLED);
        assertThat(cancelled.eventId()).endsWith("/0").isNotEqualTo(acked).isNotEqualTo(dead);
    }

    /** The id of a dead letter in the shard of "trimmed", which it pushes out. */
    private static String survivor() {
        return java.util.stream.IntStream.range(0, 100)
                .mapToObj(i -> "survivor-" + i)
                .filter(id -> StorageFormat.shardOf(id, SHARDS) == StorageFormat.shardOf("trimmed", SHARDS))
                .findFirst()
                .orElseThrow();
    }

    private static HourglassBuilder trimmingToOnePerShard(HourglassBuilder builder) {
        return builder.deadLetterLimits(TRIMS, SHARDS, Duration.ZERO);
    }

    /**
     * Ends jobs in every way: acked, dead (dead-lettered, lease expired), cancelled, expired (to the dead letters or
     * dropped) and trimmed (the older of two dead letters of one shard, whose limit is one).
     */
    private static void endOneJobOfEachOutcome(Hourglass hourglass) throws InterruptedException {
        for (int i = 0; i < 6; i++) {
            hourglass.schedule(JobRequest.builder(ORDERS)
                    .id("ok-" + i)
                    .payload("{\"n\":" + i + "}")
                    .build());
        }
        hourglass.schedule(JobRequest.builder(ORDERS)
                .id("big")
                .payload("\"" + "x".repeat(98) + "\"")
                .build());
        hourglass.schedule(
                JobRequest.builder(ORDERS).id("failed").maxAttempts(3).build());
        hourglass.schedule(JobRequest.builder(ORDERS)
                .id("cancelled")
                .delay(Duration.ofHours(1))
                .build());
        hourglass.schedule(
                JobRequest.builder(LEASES).id("reaped").maxAttempts(1).build());

        List<Delivery> deliveries = hourglass.reserve(ORDERS, 100, Duration.ofSeconds(30));
        assertThat(deliveries).hasSize(8);
        for (Delivery d : deliveries) {
            if (d.id().equals("failed")) {
                hourglass.deadLetter(ORDERS, d.id(), d.receipt(), "boom");
            } else {
                hourglass.ack(ORDERS, d.id(), d.receipt());
            }
        }
        assertThat(hourglass.cancel(ORDERS, "cancelled")).isTrue();

        assertThat(hourglass.reserve(LEASES, 1, Duration.ofMillis(20))).hasSize(1);
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() ->
                        hourglass.reserve(LEASES, 1, Duration.ofSeconds(30)).isEmpty()
                                && hourglass.stats(LEASES).dead() == 1);

        hourglass.schedule(JobRequest.builder(OFFERS)
                .id("expired")
                .ttl(Duration.ofMillis(20))
                .build());
        hourglass.schedule(JobRequest.builder(OFFERS)
                .id("dropped")
                .ttl(Duration.ofMillis(20))
                .onExpiry(OnExpiry.DROP)
                .build());
        Thread.sleep(60);
        assertThat(hourglass.reserve(OFFERS, 10, null)).isEmpty();
        assertThat(hourglass.inspector().expired(OFFERS)).isEqualTo(2);

        String survivor = survivor();
        for (String id : List.of("trimmed", survivor)) {
            hourglass.schedule(JobRequest.builder(TRIMS).id(id).build());
            Delivery d = hourglass.reserve(TRIMS, 1, null).get(0);
            hourglass.deadLetter(TRIMS, d.id(), d.receipt(), "failed " + d.id());
            Thread.sleep(3);
        }
        assertThat(hourglass.deadLetters(TRIMS, 0, 10))
                .extracting(io.hourglass.JobInfo::id)
                .containsExactly(survivor);
    }

    private HistoryArchiver archiver(HourglassFactory factory, String name, Duration claimIdle, int batchSize) {
        return HistoryArchiver.builder()
                .redisUri(factory.redisUri())
                .namespace(factory.namespace(), SHARDS)
                .dataSource(dataSource)
                .consumer(HistoryArchiver.DEFAULT_GROUP, name)
                .claimIdle(claimIdle)
                .batchSize(batchSize)
                .pollInterval(Duration.ofMillis(20))
                .build();
    }

    private List<String> eventStreams(String namespace) {
        return List.of(ORDERS, LEASES).stream()
                .flatMap(topic -> java.util.stream.IntStream.range(0, SHARDS)
                        .mapToObj(shard -> StorageFormat.shardKeyPrefix(namespace, topic, shard) + "events"))
                .toList();
    }

    private void makeGroup(String key) {
        try {
            redis.xgroupCreate(
                    XReadArgs.StreamOffset.from(key, "0"),
                    HistoryArchiver.DEFAULT_GROUP,
                    XGroupCreateArgs.Builder.mkstream().entriesRead(0));
        } catch (RedisCommandExecutionException e) {
            assertThat(e.getMessage()).startsWith("BUSYGROUP");
        }
    }

    private long pendingEvents(String namespace) {
        long pending = 0;
        for (String key : eventStreams(namespace)) {
            if (redis.exists(key) == 1) {
                pending += redis.xpending(key, HistoryArchiver.DEFAULT_GROUP).getCount();
            }
        }
        return pending;
    }

    /** The events the streams hold: an entry holds those of one script call. */
    private long streamedEvents(String namespace) {
        long events = 0;
        for (String key : eventStreams(namespace)) {
            for (StreamMessage<String, String> m : redis.xrange(key, Range.create("-", "+"))) {
                events += Long.parseLong(m.getBody().getOrDefault("count", "1"));
            }
        }
        return events;
    }

    private long rows() throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM " + HistoryStore.TABLE)) {
            r.next();
            return r.getLong(1);
        }
    }

    private List<HistoryEntry> all() throws SQLException {
        return new HistoryStore(dataSource)
                .query(HistoryQuery.builder().limit(HistoryQuery.MAX_LIMIT).build())
                .entries();
    }
}
