package io.hourglass;

import io.hourglass.validation.CallbackAllowList;
import io.hourglass.validation.Names;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;

/**
 * Builds a {@link Hourglass}. Not thread-safe; the instance it builds is. The {@code DEFAULT_*} constants are the
 * values used when a setting is not given (the Spring starter's properties reuse them).
 */
public final class HourglassBuilder {
    /** Redis to use when none is given: {@value}. */
    public static final String DEFAULT_REDIS_URI = "redis://localhost:6379";
    /** Namespace when none is given: {@value}. */
    public static final String DEFAULT_NAMESPACE = "default";
    /** Shards per topic: {@value}, right for one Redis; use more to spread a topic over a Redis Cluster. */
    public static final int DEFAULT_SHARDS = 1;
    /** Deliveries before a job goes to the dead letters: {@value} (the first try and the 9 default steps). */
    public static final int DEFAULT_MAX_ATTEMPTS = 10;
    /** Lease of each delivery: 30 s. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
    /** Backstop sweep: every worker re-checks each of its shards this often, whatever the signals said: 1 s. */
    public static final Duration DEFAULT_SWEEP_INTERVAL = Duration.ofSeconds(1);
    /** Time allowed for one Redis command: 10 s. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);
    /** Largest payload accepted: 1 MiB. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 1 << 20;
    /**
     * How long a job's id stays reserved once the job is gone (acked, cancelled, or its dead letter deleted), so that a
     * late or retried schedule of the same id does not run it again: 1 h.
     */
    public static final Duration DEFAULT_IDEMPOTENCY_WINDOW = Duration.ofHours(1);
    /** Dead letters a topic keeps at most, for topics that do not say: 10,000 (the oldest beyond it are deleted). */
    public static final int DEFAULT_DEAD_LETTER_MAX_COUNT = 10_000;
    /** Age past which a dead letter is deleted, for topics that do not say: 14 days. */
    public static final Duration DEFAULT_DEAD_LETTER_MAX_AGE = Duration.ofDays(14);
    /** Longest delay accepted: 3650 days. */
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofDays(3650);

    // Read by name by HourglassSettings.
    List<RedisURI> redisUris = List.of(RedisURI.create(DEFAULT_REDIS_URI));
    boolean cluster;
    String namespace = DEFAULT_NAMESPACE;
    int shards = DEFAULT_SHARDS;
    int defaultMaxAttempts = DEFAULT_MAX_ATTEMPTS;
    Duration defaultLease = DEFAULT_LEASE;
    Duration idempotencyWindow = DEFAULT_IDEMPOTENCY_WINDOW;
    Map<String, Duration> topicIdempotencyWindows = new HashMap<>();
    Duration completedRetention = Duration.ZERO;
    Map<String, Duration> topicCompletedRetentions = new HashMap<>();
    int deadLetterMaxCount = DEFAULT_DEAD_LETTER_MAX_COUNT;
    Duration deadLetterMaxAge = DEFAULT_DEAD_LETTER_MAX_AGE;
    Map<String, Integer> topicDeadLetterMaxCounts = new HashMap<>();
    Map<String, Duration> topicDeadLetterMaxAges = new HashMap<>();
    Backoff defaultBackoff = Backoff.DEFAULT;
    Duration sweepInterval = DEFAULT_SWEEP_INTERVAL;
    Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
    Duration maxDelay = DEFAULT_MAX_DELAY;
    boolean pollingMode;
    JobEvents events = JobEvents.NONE;
    int replicasToWait;
    List<String> callbackAllowList = List.of();
    java.nio.file.Path tlsTrustedCertificates;
    Duration replicaWaitTimeout = Duration.ofSeconds(1);
    long historyStreamLength;
    int historyPayloadLimitBytes;
    boolean scheduleTicker = true;
    ColdTier coldTier;
    Duration coldTierHorizon;

    HourglassBuilder() {}

    /**
     * @param uri a Lettuce Redis URI: {@code redis://[user:password@]host:port[/db]}, {@code rediss://} for TLS,
     *     {@code redis-sentinel://host:port,host:port#master} for Sentinel
     * @return this builder
     * @throws IllegalArgumentException naming {@code redisUri} when it cannot be parsed
     */
    public HourglassBuilder redisUri(String uri) {
        this.redisUris = List.of(parse(uri, "redisUri"));
        this.cluster = false;
        return this;
    }

    private static RedisURI parse(String uri, String field) {
        try {
            return RedisURI.create(Objects.requireNonNull(uri));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(field + ": cannot parse " + uri + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param uri a Lettuce Redis URI object; not null
     * @return this builder
     */
    public HourglassBuilder redisUri(RedisURI uri) {
        this.redisUris = List.of(Objects.requireNonNull(uri, "redisUri"));
        this.cluster = false;
        return this;
    }

    /**
     * Uses a Redis Cluster instead of one Redis. Each script touches the keys of one shard, which share a hash tag, so
     * it runs on the master of one slot; give a topic several {@link #shards(int)} to spread it over the masters.
     *
     * @param seedUris one or more nodes of the cluster, {@code redis://host:port} (or {@code rediss://}); the rest of
     *     the topology is discovered
     * @return this builder
     * @throws IllegalArgumentException naming {@code clusterNodes} when none is given or one cannot be parsed
     */
    public HourglassBuilder clusterNodes(String... seedUris) {
        if (seedUris == null || seedUris.length == 0) {
            throw new IllegalArgumentException("clusterNodes: give at least one seed node");
        }
        List<RedisURI> uris = new ArrayList<>();
        for (String u : seedUris) {
            uris.add(parse(u, "clusterNodes"));
        }
        this.redisUris = List.copyOf(uris);
        this.cluster = true;
        return this;
    }

    /**
     * @param namespace 1 to 100 characters of {@code [A-Za-z0-9._-]}; isolates applications sharing one Redis
     * @return this builder
     */
    public HourglassBuilder namespace(String namespace) {
        this.namespace = Names.checkNamespace(namespace);
        return this;
    }

    /**
     * @param shards into how many hash tags each topic is spread, 1 to 1024. Every process of a namespace must use the
     *     same number: a job's shard is a hash of its id modulo this number.
     * @return this builder
     */
    public HourglassBuilder shards(int shards) {
        if (shards < 1 || shards > 1024) {
            throw new IllegalArgumentException("shards: must be between 1 and 1024, got " + shards);
        }
        this.shards = shards;
        return this;
    }

    /**
     * @param maxAttempts deliveries before dead-lettering, for jobs that do not say; 1 to 10000
     * @return this builder
     */
    public HourglassBuilder defaultMaxAttempts(int maxAttempts) {
        this.defaultMaxAttempts = Names.checkMaxAttempts(maxAttempts);
        return this;
    }

    /**
     * @param lease lease of each delivery, for jobs that do not say; 1 ms to 24 h
     * @return this builder
     */
    public HourglassBuilder defaultLease(Duration lease) {
        this.defaultLease = Names.checkLease(lease, "defaultLease");
        return this;
    }

    /**
     * @param window how long a job's id stays reserved once the job is gone (acked, cancelled, or its dead letter
     *     deleted), for jobs whose topic and request do not say: a schedule of the same id in that time is refused
     *     ({@link JobAlreadyExistsException}) or answered {@code KEPT}. 0 turns it off; at most 366 days
     * @return this builder
     * @throws IllegalArgumentException naming {@code idempotencyWindow} when out of range
     */
    public HourglassBuilder idempotencyWindow(Duration window) {
        this.idempotencyWindow = Names.checkIdempotencyWindow(window, "idempotencyWindow");
        return this;
    }

    /**
     * @param topic a topic name
     * @param window the idempotency window of the topic's jobs that do not say, overriding
     *     {@link #idempotencyWindow(Duration)}; 0 turns it off; at most 366 days
     * @return this builder
     * @throws IllegalArgumentException naming {@code topic} or {@code idempotencyWindow} when bad
     */
    public HourglassBuilder idempotencyWindow(String topic, Duration window) {
        Names.checkTopic(topic);
        topicIdempotencyWindows.put(topic, Names.checkIdempotencyWindow(window, "idempotencyWindow"));
        return this;
    }

    /**
     * Keeps acked jobs readable as {@link JobState#COMPLETED} for a while, for topics that do not say. A retained job
     * keeps its record (payload included), completion time, attempts and result in the storage of the idempotency
     * window, so it costs that entry plus its record and result (README, "Completed jobs"), and its id stays reserved
     * until the later of its retention and its window ends. Set by the process that acks.
     *
     * @param retention how long an acked job stays readable; 0 (the default) turns it off; at most 366 days
     * @return this builder
     * @throws IllegalArgumentException naming {@code completedRetention} when out of range
     */
    public HourglassBuilder completedRetention(Duration retention) {
        this.completedRetention = Names.checkIdempotencyWindow(retention, "completedRetention");
        return this;
    }

    /**
     * @param topic a topic name
     * @param retention how long the topic's acked jobs stay readable, overriding {@link #completedRetention(Duration)};
     *     0 turns it off; at most 366 days
     * @return this builder
     * @throws IllegalArgumentException naming {@code topic} or {@code completedRetention} when bad
     */
    public HourglassBuilder completedRetention(String topic, Duration retention) {
        Names.checkTopic(topic);
        topicCompletedRetentions.put(topic, Names.checkIdempotencyWindow(retention, "completedRetention"));
        return this;
    }

    /**
     * Bounds the dead letters of topics that do not say. Each time a job goes to the dead letters (and on an idle
     * worker's sweep), the oldest beyond the limits are deleted inside the same script, counted
     * ({@link TopicOverview#deadLettersTrimmed()}) and logged once per topic and process. The count is shared evenly by
     * the topic's shards (each keeps at most {@code maxCount / shards}, rounded up). Set by the processes that nack and
     * claim.
     *
     * @param maxCount dead letters a topic keeps at most; 0 for no limit (default
     *     {@value #DEFAULT_DEAD_LETTER_MAX_COUNT})
     * @param maxAge age past which a dead letter is deleted; 0 for no limit; at most 3650 days (default 14 days)
     * @return this builder
     * @throws IllegalArgumentException naming {@code deadLetterMaxCount} or {@code deadLetterMaxAge} when out of range
     */
    public HourglassBuilder deadLetterLimits(int maxCount, Duration maxAge) {
        this.deadLetterMaxCount = checkDeadLetterMaxCount(maxCount);
        this.deadLetterMaxAge = checkDeadLetterMaxAge(maxAge);
        return this;
    }

    /**
     * @param topic a topic name
     * @param maxCount dead letters the topic keeps at most, overriding {@link #deadLetterLimits(int, Duration)}; 0 for
     *     no limit
     * @param maxAge age past which the topic's dead letters are deleted; 0 for no limit; at most 3650 days
     * @return this builder
     * @throws IllegalArgumentException naming {@code topic}, {@code deadLetterMaxCount} or {@code deadLetterMaxAge}
     *     when bad
     */
    public HourglassBuilder deadLetterLimits(String topic, int maxCount, Duration maxAge) {
        Names.checkTopic(topic);
        topicDeadLetterMaxCounts.put(topic, checkDeadLetterMaxCount(maxCount));
        topicDeadLetterMaxAges.put(topic, checkDeadLetterMaxAge(maxAge));
        return this;
    }

    private static int checkDeadLetterMaxCount(int maxCount) {
        if (maxCount < 0) {
            throw new IllegalArgumentException("deadLetterMaxCount: must be 0 (no limit) or more, got " + maxCount);
        }
        return maxCount;
    }

    private static Duration checkDeadLetterMaxAge(Duration maxAge) {
        if (maxAge == null || maxAge.isNegative() || maxAge.compareTo(Duration.ofDays(3650)) > 0) {
            throw new IllegalArgumentException(
                    "deadLetterMaxAge: must be between 0 (no limit) and 3650 days, got " + maxAge);
        }
        return maxAge;
    }

    /**
     * @param backoff retry backoff, for jobs that do not say; not null
     * @return this builder
     */
    public HourglassBuilder defaultBackoff(Backoff backoff) {
        this.defaultBackoff = Objects.requireNonNull(backoff, "defaultBackoff");
        return this;
    }

    /**
     * @param interval how often workers re-check every shard regardless of signals (the backstop that bounds the delay
     *     a lost signal or a dead peer can cause), 10 ms to 1 h
     * @return this builder
     */
    public HourglassBuilder sweepInterval(Duration interval) {
        if (interval == null || interval.toMillis() < 10 || interval.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("sweepInterval: must be between 10 ms and 1 h, got " + interval);
        }
        this.sweepInterval = interval;
        return this;
    }

    /**
     * Turns on completion events for a job history (the {@code hourglass-history-jdbc} archiver reads them): every job
     * that ends (acked, dead, cancelled) has an event in its shard's stream {@code hg:{ns:topic:k}:events}, written by
     * the script that ends it: one stream entry per script call, holding the events of all the jobs it ended (an ack
     * batch's up to 256). Off by default, and then nothing is written. Every process of a namespace that acks, nacks,
     * claims or cancels should use the same setting, or the jobs that one without it ends are not in the history.
     *
     * @param streamLength the cap of each shard's stream in entries (script calls, each with one or more events, so the
     *     stream keeps at least this many events), applied approximately ({@code XADD MAXLEN ~}): when no archiver
     *     reads for long, the oldest entries are dropped; 1 to 1,000,000,000, or 0 to turn events off
     * @param payloadLimitBytes the largest payload, in bytes, copied into an event; 0 to copy none. A larger payload is
     *     left out and only its size recorded. 0 to {@link #maxPayloadBytes}'s limit (512 MiB)
     * @return this builder
     * @throws IllegalArgumentException naming {@code historyStreamLength} or {@code historyPayloadLimitBytes} when out
     *     of range
     */
    public HourglassBuilder historyEvents(long streamLength, int payloadLimitBytes) {
        if (streamLength < 0 || streamLength > 1_000_000_000L) {
            throw new IllegalArgumentException(
                    "historyStreamLength: must be between 0 and 1000000000, got " + streamLength);
        }
        if (payloadLimitBytes < 0 || payloadLimitBytes > 536_870_912) {
            throw new IllegalArgumentException(
                    "historyPayloadLimitBytes: must be between 0 and 536870912, got " + payloadLimitBytes);
        }
        this.historyStreamLength = streamLength;
        this.historyPayloadLimitBytes = payloadLimitBytes;
        return this;
    }

    /**
     * @param timeout time allowed for one Redis command before {@link RedisUnavailableException}; positive
     * @return this builder
     */
    public HourglassBuilder commandTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("commandTimeout: must be positive, got " + timeout);
        }
        this.commandTimeout = timeout;
        return this;
    }

    /**
     * @param bytes largest payload {@link Hourglass#schedule} accepts, 1 byte to 512 MiB
     * @return this builder
     */
    public HourglassBuilder maxPayloadBytes(int bytes) {
        if (bytes < 1 || bytes > 512 << 20) {
            throw new IllegalArgumentException("maxPayloadBytes: must be between 1 and 536870912, got " + bytes);
        }
        this.maxPayloadBytes = bytes;
        return this;
    }

    /**
     * @param maxDelay longest delay (or distance of {@code runAt} into the future) accepted; positive
     * @return this builder
     */
    public HourglassBuilder maxDelay(Duration maxDelay) {
        if (maxDelay == null || maxDelay.isNegative() || maxDelay.isZero()) {
            throw new IllegalArgumentException("maxDelay: must be positive, got " + maxDelay);
        }
        this.maxDelay = maxDelay;
        return this;
    }

    /**
     * @param pollingMode true for Redis proxies without pub/sub (Codis, Twemproxy): workers then learn of jobs
     *     scheduled by other processes only at the next sweep, so pair it with a short {@link #sweepInterval}
     * @return this builder
     */
    public HourglassBuilder pollingMode(boolean pollingMode) {
        this.pollingMode = pollingMode;
        return this;
    }

    /**
     * Closes the loss window of asynchronous replication for new jobs: after each schedule, reschedule and requeue,
     * waits (Redis {@code WAIT}) until {@code replicas} replicas have the write, so a failover to a replica cannot lose
     * a job the caller was told is accepted. Costs one more round trip and the replication delay per call. Not for
     * Redis Cluster.
     *
     * @param replicas replicas that must confirm, 0 (the default: do not wait) to 16
     * @param timeout how long to wait for them; positive. When fewer confirm in time the call throws
     *     {@link RedisUnavailableException} (the job may still exist: retry with the same id and
     *     {@link OnConflict#KEEP})
     * @return this builder
     */
    public HourglassBuilder waitForReplicas(int replicas, Duration timeout) {
        if (replicas < 0 || replicas > 16) {
            throw new IllegalArgumentException("replicas: must be between 0 and 16, got " + replicas);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout: must be positive, got " + timeout);
        }
        this.replicasToWait = replicas;
        this.replicaWaitTimeout = timeout;
        return this;
    }

    /**
     * Trusts the certificates in a PEM file (e.g. a private CA) for {@code rediss://} connections instead of the JVM's
     * default trust store: only servers whose chain leads to these certificates are accepted.
     *
     * @param pemFile X.509 certificates in PEM; must exist
     * @return this builder
     * @throws IllegalArgumentException naming {@code tlsTrustedCertificates} when the file does not exist
     */
    public HourglassBuilder tlsTrustedCertificates(java.nio.file.Path pemFile) {
        if (pemFile == null || !java.nio.file.Files.isRegularFile(pemFile)) {
            throw new IllegalArgumentException("tlsTrustedCertificates: no such file " + pemFile);
        }
        this.tlsTrustedCertificates = pemFile;
        return this;
    }

    /**
     * Restricts where callback jobs may be POSTed, so that a caller who can schedule jobs cannot make this service
     * reach what it should not (SSRF). Checked when a job is scheduled ({@link IllegalArgumentException} naming
     * {@code callbackUrl}) and again on every connection a delivery opens, against the addresses the host then resolves
     * to, which are the ones connected to (the attempt fails otherwise).
     *
     * <p>Whatever the list, loopback, private (RFC 1918, fc00::/7), link-local, metadata (169.254.169.254,
     * fd00:ec2::254), unspecified, multicast and other special-purpose addresses, IPv4-mapped forms included, are
     * refused unless a listed address or range covers them; a listed name never lets them through.
     *
     * @param entries host names ({@code api.example.com}), subdomain wildcards ({@code *.example.com}), IP addresses or
     *     CIDR ranges ({@code 10.0.0.0/8}); a host is allowed when every address it resolves to is in a listed range,
     *     or is public and the host matches a listed name. Empty (the default) allows every public address and no
     *     internal one; list {@code 127.0.0.1} to call this machine (tests, development).
     * @return this builder
     * @throws IllegalArgumentException naming {@code callbackAllowList} when an entry is malformed
     */
    public HourglassBuilder callbackAllowList(List<String> entries) {
        new CallbackAllowList(Objects.requireNonNull(entries, "callbackAllowList"));
        this.callbackAllowList = List.copyOf(entries);
        return this;
    }

    /**
     * @param events observer of scheduling and deliveries (for metrics); not null
     * @return this builder
     */
    public HourglassBuilder events(JobEvents events) {
        this.events = Objects.requireNonNull(events, "events");
        return this;
    }

    /**
     * Whether this instance runs the ticker of the namespace's recurring schedules ({@link Hourglass#schedules()}): a
     * daemon thread that creates each due tick's job. Every process that runs it shares the work, and each tick still
     * becomes exactly one job, so run it in several processes for redundancy; it costs one script call per sweep
     * interval and per tick. Turn it off for short-lived processes (a command line) or ones that must not create jobs.
     *
     * @param enabled true (the default) to run it
     * @return this builder
     */
    public HourglassBuilder scheduleTicker(boolean enabled) {
        this.scheduleTicker = enabled;
        return this;
    }

    /**
     * Keeps the jobs due beyond {@code horizon} out of Redis, in a cold tier (e.g. {@code hourglass-tier-jdbc}'s
     * PostgreSQL), which moves them into Redis before they come within the horizon. {@link Hourglass#schedule},
     * {@link Hourglass#get}, {@link Hourglass#cancel} and {@link Hourglass#reschedule} work whichever tier holds a job,
     * a reschedule moves a job between the tiers, and an id held by either tier is a conflict. Off by default; then
     * nothing of it runs. With it, a schedule of a caller-given id, a cancel and a miss of {@code get} also ask the
     * cold tier (README, "Tiered storage").
     *
     * @param tier the cold tier, of this instance's namespace; {@link Hourglass#close()} stops it, the caller closes it
     * @param horizon jobs due more than this far ahead go to the cold tier; 1 s to {@link #maxDelay}
     * @return this builder
     * @throws IllegalArgumentException naming {@code coldTier} or {@code coldTierHorizon} when null or out of range
     */
    public HourglassBuilder coldTier(ColdTier tier, Duration horizon) {
        if (tier == null) {
            throw new IllegalArgumentException("coldTier: must not be null");
        }
        if (horizon == null || horizon.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("coldTierHorizon: must be at least 1 s, got " + horizon);
        }
        this.coldTier = tier;
        this.coldTierHorizon = horizon;
        return this;
    }

    /**
     * Connects to Redis and returns the instance.
     *
     * @return a started instance; close it when done
     * @throws RedisUnavailableException when Redis cannot be reached
     */
    public Hourglass build() {
        if (cluster && replicasToWait > 0) {
            throw new IllegalArgumentException("waitForReplicas: not supported with a Redis Cluster");
        }
        if (coldTier != null) {
            if (!namespace.equals(coldTier.namespace())) {
                throw new IllegalArgumentException("coldTier: holds namespace '" + coldTier.namespace()
                        + "', not this instance's '" + namespace + "'");
            }
            if (coldTierHorizon.compareTo(maxDelay) > 0) {
                throw new IllegalArgumentException(
                        "coldTierHorizon: " + coldTierHorizon + " is more than maxDelay " + maxDelay);
            }
        }
        HourglassProvider provider = ServiceLoader.load(
                        HourglassProvider.class, HourglassBuilder.class.getClassLoader())
                .findFirst()
                .orElseThrow(
                        () -> new IllegalStateException("no HourglassProvider: the hourglass-core jar is incomplete"));
        return provider.create(new HourglassSettings(this));
    }
}
