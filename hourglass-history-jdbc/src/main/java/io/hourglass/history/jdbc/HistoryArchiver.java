package io.hourglass.history.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hourglass.StorageFormat;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.Consumer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the completion events of one namespace (written by the scripts when
 * {@link io.hourglass.HourglassBuilder#historyEvents} is on) from Redis into the {@link HistoryStore}. It reads each
 * shard's stream {@code hg:{ns:topic:k}:events} of every topic in the namespace's topic set with a consumer group,
 * writes each batch in one transaction, and acks the events ({@code XACK}) only after the commit: an archiver that dies
 * in between leaves its events pending, and whoever reads them next (another archiver of the group through
 * {@code XAUTOCLAIM} once they were idle for {@link Builder#claimIdle}, or this one again) writes them again, which the
 * store's upsert turns into no second row. Several archivers of one group share the work.
 *
 * <p>{@link #start()} runs the loop on a daemon thread; {@link #archiveOnce()} does one pass (for tests and tools).
 * With PostgreSQL or Redis down the loop logs it and retries every second; the events wait in Redis, up to each
 * stream's cap. Also deletes, at most once a minute, the entries older than {@link Builder#retention}. Reads a
 * standalone Redis, Sentinel or a Redis Cluster. Thread-safe.
 */
public final class HistoryArchiver implements AutoCloseable {
    /** The consumer group when none is given. */
    public static final String DEFAULT_GROUP = "hourglass-history";

    private static final Logger LOG = LoggerFactory.getLogger(HistoryArchiver.class);
    private static final Duration RETENTION_EVERY = Duration.ofMinutes(1);
    private static final int RETENTION_BATCH = 1000;

    private final AbstractRedisClient client;
    private final StatefulConnection<byte[], byte[]> connection;
    private final RedisClusterCommands<byte[], byte[]> redis;
    private final HistoryStore store;
    private final HikariDataSource ownPool;
    private final String namespace;
    private final int shards;
    private final byte[] group;
    private final Consumer<byte[]> consumer;
    private final int batchSize;
    private final Duration pollInterval;
    private final Duration claimIdle;
    private final Duration retention;
    private final Set<String> groupsMade = new HashSet<>();
    private final AtomicLong dropped = new AtomicLong();
    /** Streams whose events this consumer read but did not ack (a failed write): read again from their start. */
    private final Set<String> ownPending = new HashSet<>();

    private final Object lock = new Object();
    private Thread loop;
    private volatile boolean closed;
    private Instant nextRetention = Instant.EPOCH;
    /** A test's stand-in for a process that dies after the commit and before the ack. */
    volatile Runnable beforeAck = () -> {};

    private HistoryArchiver(Builder b, DataSource dataSource, HikariDataSource ownPool) {
        this.ownPool = ownPool;
        this.store = new HistoryStore(dataSource);
        this.namespace = b.namespace;
        this.shards = b.shards;
        this.group = bytes(b.group);
        this.consumer = Consumer.from(group, bytes(b.consumerName));
        this.batchSize = b.batchSize;
        this.pollInterval = b.pollInterval;
        this.claimIdle = b.claimIdle;
        this.retention = b.retention;
        if (b.clusterNodes != null) {
            RedisClusterClient cluster = RedisClusterClient.create(
                    b.clusterNodes.stream().map(RedisURI::create).toList());
            StatefulRedisClusterConnection<byte[], byte[]> c = cluster.connect(ByteArrayCodec.INSTANCE);
            this.client = cluster;
            this.connection = c;
            this.redis = c.sync();
        } else {
            RedisClient standalone = RedisClient.create(RedisURI.create(b.redisUri));
            StatefulRedisConnection<byte[], byte[]> c = standalone.connect(ByteArrayCodec.INSTANCE);
            this.client = standalone;
            this.connection = c;
            this.redis = c.sync();
        }
    }

    /**
     * @return a builder; {@link Builder#redisUri} (or {@link Builder#clusterNodes}), {@link Builder#namespace} and a
     *     data source are required
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the store the archiver writes to, for queries */
    public HistoryStore store() {
        return store;
    }

    /**
     * Starts the archiving loop on a daemon thread; does nothing when it runs already.
     *
     * @throws IllegalStateException when closed
     */
    public void start() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("closed");
            }
            if (loop != null) {
                return;
            }
            loop = new Thread(this::run, "hourglass-history-archiver");
            loop.setDaemon(true);
            loop.start();
        }
    }

    /**
     * One pass over every stream of the namespace: claims the events other consumers left idle for longer than
     * {@link Builder#claimIdle}, reads new ones, writes them and acks them, a batch at a time, until no stream has
     * more.
     *
     * @return how many events were archived (written or found already written) and acked; an entry holds one or more
     * @throws SQLException when PostgreSQL refuses; the events of the failed batch stay pending and are read again
     * @throws io.lettuce.core.RedisException when Redis fails
     */
    public long archiveOnce() throws SQLException {
        synchronized (lock) {
            long archived = 0;
            for (String topic : topics()) {
                for (int shard = 0; shard < shards; shard++) {
                    archived += drain(topic, shard);
                }
            }
            return archived;
        }
    }

    private long drain(String topic, int shard) throws SQLException {
        String key = StorageFormat.shardKeyPrefix(namespace, topic, shard) + "events";
        byte[] keyBytes = bytes(key);
        if (groupsMade.add(key)) {
            makeGroup(keyBytes);
            // After a restart under the same consumer name, its unacked events are read again first.
            ownPending.add(key);
        }
        long archived = 0;
        while (true) {
            List<StreamMessage<byte[], byte[]>> batch;
            try {
                batch = next(key, keyBytes);
            } catch (RedisCommandExecutionException e) {
                if (e.getMessage() != null && e.getMessage().startsWith("NOGROUP")) {
                    // Redis lost the stream and its group (restarted without persistence): made again next pass.
                    groupsMade.remove(key);
                }
                throw e;
            }
            if (batch.isEmpty()) {
                return archived;
            }
            List<HistoryEntry> entries = entries(topic, shard, batch);
            try {
                store.write(entries);
                beforeAck.run();
                redis.xack(
                        keyBytes,
                        group,
                        batch.stream().map(StreamMessage::getId).toArray(String[]::new));
            } catch (SQLException | RuntimeException e) {
                // Written or not, the batch is still this consumer's: the next pass reads it again at once rather
                // than after claimIdle, and the upsert keeps a second write from making rows.
                ownPending.add(key);
                throw e;
            }
            archived += entries.size();
        }
    }

    /** The next batch of one stream: this consumer's own pending events, then others' idle ones, then new ones. */
    private List<StreamMessage<byte[], byte[]>> next(String key, byte[] keyBytes) {
        if (ownPending.contains(key)) {
            List<StreamMessage<byte[], byte[]>> own = redis.xreadgroup(
                    consumer, XReadArgs.Builder.count(batchSize), XReadArgs.StreamOffset.from(keyBytes, "0"));
            if (!own.isEmpty()) {
                return own;
            }
            ownPending.remove(key);
        }
        ClaimedMessages<byte[], byte[]> claimed = redis.xautoclaim(
                keyBytes,
                XAutoClaimArgs.Builder.xautoclaim(consumer, claimIdle, "0-0").count(batchSize));
        if (!claimed.getMessages().isEmpty()) {
            return claimed.getMessages();
        }
        countDropped(key, keyBytes);
        return redis.xreadgroup(
                consumer, XReadArgs.Builder.count(batchSize), XReadArgs.StreamOffset.lastConsumed(keyBytes));
    }

    /**
     * Counts the entries the stream's cap trimmed before the group read them: of the entries ever added, those no
     * longer in the stream were trimmed (the scripts never delete one), and the group has read the first
     * {@code entries-read} of them in order, so the rest were lost unread. An entry holds the events of one script
     * call, at least one, whose number went with it: the count is of entries. Checked before each read of new events,
     * since that read moves the group past the gap. Redis 7; skipped where Redis does not say.
     */
    private void countDropped(String key, byte[] keyBytes) {
        List<Object> stream = redis.xinfoStream(keyBytes);
        Long added = field(stream, "entries-added");
        Long length = field(stream, "length");
        Long read = null;
        byte[] lastDelivered = null;
        for (Object info : redis.xinfoGroups(keyBytes)) {
            List<?> fields = (List<?>) info;
            if (fieldValue(fields, "name") instanceof byte[] name && Arrays.equals(name, group)) {
                read = fieldValue(fields, "entries-read") instanceof Long n ? n : null;
                lastDelivered = fieldValue(fields, "last-delivered-id") instanceof byte[] id ? id : null;
            }
        }
        if (added == null || length == null || read == null || lastDelivered == null) {
            return;
        }
        long trimmed = added - length;
        long lost = trimmed - read;
        if (lost > 0) {
            dropped.addAndGet(lost);
            LOG.warn(
                    "{} history entries of {} (each one script call's events, one or more) were dropped by the"
                            + " stream's cap before an archiver read them",
                    lost,
                    key);
            // Redis counts a group's reads one by one and does not skip trimmed entries, so the counter is moved past
            // the gap; otherwise the next check would count the same gap again.
            redis.dispatch(
                    CommandType.XGROUP,
                    new StatusOutput<>(ByteArrayCodec.INSTANCE),
                    new CommandArgs<>(ByteArrayCodec.INSTANCE)
                            .add("SETID")
                            .addKey(keyBytes)
                            .addValue(group)
                            .addValue(lastDelivered)
                            .add("ENTRIESREAD")
                            .add(trimmed));
        }
    }

    private static Long field(List<Object> fields, String name) {
        return fieldValue(fields, name) instanceof Long n ? n : null;
    }

    private static Object fieldValue(List<?> fields, String name) {
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            Object k = fields.get(i);
            String text = k instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(k);
            if (text.equals(name)) {
                return fields.get(i + 1);
            }
        }
        return null;
    }

    /**
     * @return how many stream entries this archiver found dropped by a stream's cap before any archiver of its group
     *     read them (each gap also logged at WARN), since it started; for metrics. An entry holds the events of one
     *     script call (one for a cancel or a nack, up to an ack batch's 256 for an ack), so the events lost are at
     *     least this many, and exactly this many while every call ended one job
     */
    public long droppedEvents() {
        return dropped.get();
    }

    private void makeGroup(byte[] key) {
        try {
            // From the stream's start: the events written before any archiver ran belong to the history too.
            // ENTRIESREAD 0: the group's read counter is valid from the start, for countDropped.
            redis.xgroupCreate(
                    XReadArgs.StreamOffset.from(key, "0"),
                    group,
                    XGroupCreateArgs.Builder.mkstream().entriesRead(0));
        } catch (RedisCommandExecutionException e) {
            // BUSYGROUP: another archiver, or an earlier life of this one, made it.
            if (e.getMessage() == null || !e.getMessage().startsWith("BUSYGROUP")) {
                throw e;
            }
        }
    }

    private List<String> topics() {
        List<String> topics = new ArrayList<>();
        for (byte[] t : redis.smembers(bytes(StorageFormat.topicsKey(namespace)))) {
            topics.add(new String(t, StandardCharsets.UTF_8));
        }
        topics.sort(null);
        return topics;
    }

    private static List<HistoryEntry> entries(String topic, int shard, List<StreamMessage<byte[], byte[]>> batch) {
        List<HistoryEntry> entries = new ArrayList<>(batch.size());
        for (StreamMessage<byte[], byte[]> m : batch) {
            entries.addAll(entries(topic, shard, m));
        }
        return entries;
    }

    /**
     * The events of one stream entry as the scripts write it (common.lua's history_flush: the events of one script
     * call; or, written before that, one event), or none, logged, when it is malformed. An event's id is the entry's id
     * for a one-event entry of the earlier format, else the entry's id, '/', and the event's place in the entry from 0:
     * the same every time the entry is read, so a redelivered entry makes no second row.
     */
    static List<HistoryEntry> entries(String topic, int shard, StreamMessage<byte[], byte[]> m) {
        Map<String, byte[]> f = new HashMap<>();
        try {
            // A pending entry the cap trimmed away comes back from XREADGROUP 0 without a body.
            m.getBody().forEach((k, v) -> f.put(new String(k, StandardCharsets.UTF_8), v));
            List<StorageFormat.StoredEvent> events = StorageFormat.historyEvents(f);
            boolean batch = f.containsKey("events");
            List<HistoryEntry> entries = new ArrayList<>(events.size());
            for (int k = 0; k < events.size(); k++) {
                StorageFormat.StoredEvent e = events.get(k);
                entries.add(new HistoryEntry(
                        topic,
                        shard,
                        batch ? m.getId() + "/" + k : m.getId(),
                        text(e.jobId()),
                        HistoryOutcome.valueOf(e.outcome()),
                        e.attempts(),
                        e.maxAttempts(),
                        Instant.ofEpochMilli(e.dueMs()),
                        Instant.ofEpochMilli(e.atMs()),
                        text(e.error()),
                        text(e.callbackUrl()),
                        e.payload(),
                        e.payloadBytes()));
            }
            return entries;
        } catch (RuntimeException e) {
            // Acked with its batch all the same: an entry that can never be written must not block its stream.
            LOG.warn(
                    "skipping a malformed history entry {} of topic {} shard {}: {}",
                    m.getId(),
                    topic,
                    shard,
                    e.toString());
            return List.of();
        }
    }

    /** Text without NUL, which PostgreSQL's text refuses; null stays null. */
    private static String text(String value) {
        return value == null ? null : value.replace('\0', '\uFFFD');
    }

    private void run() {
        boolean failing = false;
        while (!closed) {
            try {
                long archived = archiveOnce();
                deleteExpired();
                if (failing) {
                    LOG.info("history archiving works again");
                    failing = false;
                }
                if (archived == 0) {
                    Thread.sleep(pollInterval.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                if (closed) {
                    return;
                }
                if (!failing) {
                    LOG.warn("history archiving failed, retrying every second; events wait in Redis: {}", e.toString());
                    failing = true;
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void deleteExpired() throws SQLException {
        if (retention.isZero() || Instant.now().isBefore(nextRetention)) {
            return;
        }
        nextRetention = Instant.now().plus(RETENTION_EVERY);
        long deleted = store.deleteCompletedBefore(Instant.now().minus(retention), RETENTION_BATCH);
        if (deleted > 0) {
            LOG.debug("deleted {} history entries older than {}", deleted, retention);
        }
    }

    /** Stops the loop (waiting for its pass to end), then closes the Redis connection and the pool it made. */
    @Override
    public void close() {
        Thread running;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            running = loop;
        }
        if (running != null) {
            running.interrupt();
            try {
                running.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        connection.close();
        client.shutdown();
        if (ownPool != null) {
            ownPool.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Builds a {@link HistoryArchiver}. Not thread-safe. */
    public static final class Builder {
        private String redisUri;
        private List<String> clusterNodes;
        private String namespace;
        private int shards = 1;
        private DataSource dataSource;
        private String jdbcUrl;
        private String jdbcUser;
        private String jdbcPassword;
        private String group = DEFAULT_GROUP;
        private String consumerName = "archiver-" + UUID.randomUUID();
        private int batchSize = 500;
        private Duration pollInterval = Duration.ofMillis(200);
        private Duration claimIdle = Duration.ofSeconds(60);
        private Duration retention = Duration.ofDays(30);
        private boolean migrate = true;

        private Builder() {}

        /**
         * @param uri the Lettuce URI of the namespace's Redis ({@code redis://}, {@code rediss://},
         *     {@code redis-sentinel://}); not null
         * @return this builder
         */
        public Builder redisUri(String uri) {
            this.redisUri = Objects.requireNonNull(uri, "redisUri");
            this.clusterNodes = null;
            return this;
        }

        /**
         * @param uris seed nodes of the namespace's Redis Cluster ({@code redis://host:port}); each stream is read on
         *     the master of its slot; at least one, not null
         * @return this builder
         * @throws IllegalArgumentException naming {@code clusterNodes} when empty
         */
        public Builder clusterNodes(String... uris) {
            if (uris == null || uris.length == 0) {
                throw new IllegalArgumentException("clusterNodes: at least one seed node required");
            }
            this.clusterNodes = List.of(uris);
            this.redisUri = null;
            return this;
        }

        /**
         * @param namespace the Hourglass namespace whose jobs are archived; not null
         * @param shards its shard count, as every process of the namespace uses, at least 1
         * @return this builder
         */
        public Builder namespace(String namespace, int shards) {
            if (shards < 1) {
                throw new IllegalArgumentException("shards: must be at least 1, got " + shards);
            }
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            this.shards = shards;
            return this;
        }

        /**
         * @param dataSource the PostgreSQL to write to, pooled by the caller (who also closes it); not null
         * @return this builder
         */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            return this;
        }

        /**
         * @param url a PostgreSQL JDBC URL; the archiver pools connections to it (HikariCP, at most 4) and closes the
         *     pool with itself; not null
         * @param user the database user, or null to take it from the URL
         * @param password the password, or null; never logged
         * @return this builder
         */
        public Builder jdbc(String url, String user, String password) {
            this.jdbcUrl = Objects.requireNonNull(url, "jdbcUrl");
            this.jdbcUser = user;
            this.jdbcPassword = password;
            return this;
        }

        /**
         * @param group the consumer group; archivers of one group share the events; not null
         * @param consumerName this archiver's name in the group, unique among live archivers; keep it across restarts
         *     to read its own unacked events again at once; not null
         * @return this builder
         */
        public Builder consumer(String group, String consumerName) {
            this.group = Objects.requireNonNull(group, "group");
            this.consumerName = Objects.requireNonNull(consumerName, "consumerName");
            return this;
        }

        /**
         * @param batchSize stream entries read, written in one transaction and acked together, 1 to 10,000; an entry
         *     holds the events of one script call (an ack batch's up to 256), so a transaction may hold more events
         * @return this builder
         */
        public Builder batchSize(int batchSize) {
            if (batchSize < 1 || batchSize > 10_000) {
                throw new IllegalArgumentException("batchSize: must be between 1 and 10000, got " + batchSize);
            }
            this.batchSize = batchSize;
            return this;
        }

        /**
         * @param interval the wait after a pass that found nothing, 10 ms to 1 min
         * @return this builder
         */
        public Builder pollInterval(Duration interval) {
            if (interval == null || interval.toMillis() < 10 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new IllegalArgumentException("pollInterval: must be between 10 ms and 1 min, got " + interval);
            }
            this.pollInterval = interval;
            return this;
        }

        /**
         * @param idle how long another consumer's event stays pending before this archiver takes it over (that consumer
         *     is presumed dead); 0 or more
         * @return this builder
         */
        public Builder claimIdle(Duration idle) {
            if (idle == null || idle.isNegative()) {
                throw new IllegalArgumentException("claimIdle: must be 0 or more, got " + idle);
            }
            this.claimIdle = idle;
            return this;
        }

        /**
         * @param retention how long an entry is kept after its job completed; {@link Duration#ZERO} keeps entries
         *     forever
         * @return this builder
         */
        public Builder retention(Duration retention) {
            if (retention == null || retention.isNegative()) {
                throw new IllegalArgumentException("retention: must be 0 or more, got " + retention);
            }
            this.retention = retention;
            return this;
        }

        /**
         * @param migrate whether {@link #build()} creates or upgrades the schema ({@link HistoryStore#migrate()}); true
         *     by default
         * @return this builder
         */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /**
         * Connects to Redis and, unless turned off, migrates the schema. Does not start the loop.
         *
         * @return the archiver
         * @throws IllegalArgumentException naming {@code redisUri}, {@code namespace} or {@code dataSource} when
         *     missing
         */
        public HistoryArchiver build() {
            if (redisUri == null && clusterNodes == null) {
                throw new IllegalArgumentException("redisUri: required (or clusterNodes)");
            }
            if (namespace == null) {
                throw new IllegalArgumentException("namespace: required");
            }
            if (dataSource == null && jdbcUrl == null) {
                throw new IllegalArgumentException("dataSource: required (or a JDBC URL)");
            }
            HikariDataSource pool = null;
            DataSource source = dataSource;
            if (source == null) {
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(jdbcUrl);
                config.setUsername(jdbcUser);
                config.setPassword(jdbcPassword);
                config.setMaximumPoolSize(4);
                config.setPoolName("hourglass-history");
                // Start without a database: the archiver retries, and the events wait in Redis meanwhile.
                config.setInitializationFailTimeout(-1);
                pool = new HikariDataSource(config);
                source = pool;
            }
            HistoryArchiver archiver;
            try {
                archiver = new HistoryArchiver(this, source, pool);
            } catch (RuntimeException e) {
                if (pool != null) {
                    pool.close();
                }
                throw e;
            }
            if (migrate) {
                try {
                    archiver.store.migrate();
                } catch (RuntimeException e) {
                    archiver.close();
                    throw e;
                }
            }
            return archiver;
        }
    }
}
