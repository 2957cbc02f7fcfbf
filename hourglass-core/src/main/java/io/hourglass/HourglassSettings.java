package io.hourglass;

import io.lettuce.core.RedisURI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a {@link HourglassBuilder} decided, as the instance it built uses it ({@link Hourglass#settings()}). Each value
 * is the one given to the builder method of the same name, or that method's {@code DEFAULT_*}. Immutable and
 * thread-safe; made only by {@link HourglassBuilder#build()}.
 */
public final class HourglassSettings {
    private final List<RedisURI> redisUris;
    private final boolean cluster;
    private final String namespace;
    private final int shards;
    private final int defaultMaxAttempts;
    private final Duration defaultLease;
    private final Backoff defaultBackoff;
    private final Duration sweepInterval;
    private final Duration commandTimeout;
    private final int maxPayloadBytes;
    private final Duration maxDelay;
    private final boolean pollingMode;
    private final JobEvents events;
    private final int replicasToWait;
    private final Duration replicaWaitTimeout;
    private final List<String> callbackAllowList;
    private final Path tlsTrustedCertificates;
    private final Duration idempotencyWindow;
    private final Map<String, Duration> topicIdempotencyWindows;
    private final long historyStreamLength;
    private final int historyPayloadLimitBytes;
    private final boolean scheduleTicker;
    private final Duration completedRetention;
    private final Map<String, Duration> topicCompletedRetentions;
    private final int deadLetterMaxCount;
    private final Duration deadLetterMaxAge;
    private final Map<String, Integer> topicDeadLetterMaxCounts;
    private final Map<String, Duration> topicDeadLetterMaxAges;
    private final ColdTier coldTier;
    private final Duration coldTierHorizon;

    HourglassSettings(HourglassBuilder b) {
        this.redisUris = b.redisUris;
        this.cluster = b.cluster;
        this.namespace = b.namespace;
        this.shards = b.shards;
        this.defaultMaxAttempts = b.defaultMaxAttempts;
        this.defaultLease = b.defaultLease;
        this.defaultBackoff = b.defaultBackoff;
        this.sweepInterval = b.sweepInterval;
        this.commandTimeout = b.commandTimeout;
        this.maxPayloadBytes = b.maxPayloadBytes;
        this.maxDelay = b.maxDelay;
        this.pollingMode = b.pollingMode;
        this.events = b.events;
        this.replicasToWait = b.replicasToWait;
        this.replicaWaitTimeout = b.replicaWaitTimeout;
        this.callbackAllowList = b.callbackAllowList;
        this.tlsTrustedCertificates = b.tlsTrustedCertificates;
        this.idempotencyWindow = b.idempotencyWindow;
        this.topicIdempotencyWindows = Map.copyOf(b.topicIdempotencyWindows);
        this.historyStreamLength = b.historyStreamLength;
        this.historyPayloadLimitBytes = b.historyPayloadLimitBytes;
        this.scheduleTicker = b.scheduleTicker;
        this.completedRetention = b.completedRetention;
        this.topicCompletedRetentions = Map.copyOf(b.topicCompletedRetentions);
        this.deadLetterMaxCount = b.deadLetterMaxCount;
        this.deadLetterMaxAge = b.deadLetterMaxAge;
        this.topicDeadLetterMaxCounts = Map.copyOf(b.topicDeadLetterMaxCounts);
        this.topicDeadLetterMaxAges = Map.copyOf(b.topicDeadLetterMaxAges);
        this.coldTier = b.coldTier;
        this.coldTierHorizon = b.coldTierHorizon;
    }

    /** @return the cold tier of jobs due beyond {@link #coldTierHorizon()}, or null when there is none (the default) */
    public ColdTier coldTier() {
        return coldTier;
    }

    /** @return how far ahead a job must be due to go to the {@link #coldTier()}; null exactly when there is none */
    public Duration coldTierHorizon() {
        return coldTierHorizon;
    }

    /** @return the Redis URIs: one, or a Redis Cluster's seed nodes when {@link #cluster()}; immutable */
    public List<RedisURI> redisUris() {
        return redisUris;
    }

    /** @return whether {@link #redisUris()} are seed nodes of a Redis Cluster */
    public boolean cluster() {
        return cluster;
    }

    /** @return the namespace of every key */
    public String namespace() {
        return namespace;
    }

    /** @return shards per topic, 1 to 1024 */
    public int shards() {
        return shards;
    }

    /** @return deliveries before dead-lettering, for jobs that do not say */
    public int defaultMaxAttempts() {
        return defaultMaxAttempts;
    }

    /** @return lease of each delivery, for jobs that do not say */
    public Duration defaultLease() {
        return defaultLease;
    }

    /** @return retry backoff, for jobs that do not say */
    public Backoff defaultBackoff() {
        return defaultBackoff;
    }

    /** @return how often workers re-check every shard regardless of signals */
    public Duration sweepInterval() {
        return sweepInterval;
    }

    /** @return time allowed for one Redis command */
    public Duration commandTimeout() {
        return commandTimeout;
    }

    /** @return largest payload accepted, bytes */
    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    /** @return longest delay accepted */
    public Duration maxDelay() {
        return maxDelay;
    }

    /** @return whether workers poll (no pub/sub wake signals) */
    public boolean pollingMode() {
        return pollingMode;
    }

    /** @return the observer of scheduling and deliveries; {@link JobEvents#NONE} when none was given */
    public JobEvents events() {
        return events;
    }

    /** @return replicas that must confirm each schedule, reschedule and requeue (Redis {@code WAIT}); 0: none */
    public int replicasToWait() {
        return replicasToWait;
    }

    /** @return how long to wait for {@link #replicasToWait()} replicas */
    public Duration replicaWaitTimeout() {
        return replicaWaitTimeout;
    }

    /**
     * @return the callback allow-list's entries as given; empty allows every public address and no internal one;
     *     immutable
     */
    public List<String> callbackAllowList() {
        return callbackAllowList;
    }

    /** @return the PEM file trusted for {@code rediss://}, or null for the JVM's default trust store */
    public Path tlsTrustedCertificates() {
        return tlsTrustedCertificates;
    }

    /**
     * @param topic a topic name; not null
     * @return how long an id of the topic stays reserved once its job is gone, for jobs that do not say: the topic's
     *     own window if one was set, else the instance's default; {@link Duration#ZERO} when off
     */
    public Duration idempotencyWindow(String topic) {
        return topicIdempotencyWindows.getOrDefault(topic, idempotencyWindow);
    }

    /**
     * @return the cap of each shard's completion-event stream, in events ({@link HourglassBuilder#historyEvents}); 0
     *     when history events are off
     */
    public long historyStreamLength() {
        return historyStreamLength;
    }

    /** @return the largest payload in bytes copied into a completion event; 0 when none is */
    public int historyPayloadLimitBytes() {
        return historyPayloadLimitBytes;
    }

    /** @return whether this instance runs the ticker of the namespace's recurring schedules */
    public boolean scheduleTicker() {
        return scheduleTicker;
    }

    /**
     * @param topic a topic name; not null
     * @return how long the topic's acked jobs stay readable as {@code COMPLETED}: the topic's own retention if one was
     *     set, else the instance's; {@link Duration#ZERO} when off
     */
    public Duration completedRetention(String topic) {
        return topicCompletedRetentions.getOrDefault(topic, completedRetention);
    }

    /**
     * @param topic a topic name; not null
     * @return the dead letters the topic keeps at most (the topic's own limit if one was set, else the instance's); 0
     *     for no limit
     */
    public int deadLetterMaxCount(String topic) {
        return topicDeadLetterMaxCounts.getOrDefault(topic, deadLetterMaxCount);
    }

    /**
     * @param topic a topic name; not null
     * @return the age past which the topic's dead letters are deleted (the topic's own if one was set, else the
     *     instance's); {@link Duration#ZERO} for no limit
     */
    public Duration deadLetterMaxAge(String topic) {
        return topicDeadLetterMaxAges.getOrDefault(topic, deadLetterMaxAge);
    }

    @Override
    public String toString() {
        return "HourglassSettings[namespace=" + namespace + ", shards=" + shards + ", cluster=" + cluster
                + ", pollingMode=" + pollingMode + "]";
    }
}
