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

    @Override
    public String toString() {
        return "HourglassSettings[namespace=" + namespace + ", shards=" + shards + ", cluster=" + cluster
                + ", pollingMode=" + pollingMode + "]";
    }
}
