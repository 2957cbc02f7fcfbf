package io.hourglass.spring.autoconfigure;

import io.hourglass.Backoff;
import io.hourglass.CallbackOptions;
import io.hourglass.HourglassBuilder;
import io.hourglass.WorkerOptions;
import io.hourglass.spring.listener.ListenerDefaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.logging.LogLevel;
import org.springframework.util.unit.DataSize;

/**
 * The {@code hourglass.*} properties. Every default is the core's {@code DEFAULT_*} constant ({@link HourglassBuilder},
 * {@link WorkerOptions}, {@link CallbackOptions}); durations take Spring Boot's formats ({@code 30s}, {@code 500ms},
 * {@code PT1M}; a plain number is milliseconds). Bad values fail the application's start-up with the core's message
 * naming the field.
 */
@ConfigurationProperties(prefix = "hourglass")
public class HourglassProperties {

    /** Whether to auto-configure Hourglass. */
    private boolean enabled = true;

    /** Namespace: isolates this application's keys from other applications on the same Redis. */
    private String namespace = HourglassBuilder.DEFAULT_NAMESPACE;

    /**
     * Shards (hash tags) per topic: 1 for one Redis; more spreads a topic over a Redis Cluster's masters. Every process
     * of a namespace must use the same number.
     */
    private int shards = HourglassBuilder.DEFAULT_SHARDS;

    /** Deliveries before a job goes to the dead letters, for jobs that do not say. */
    private int defaultMaxAttempts = HourglassBuilder.DEFAULT_MAX_ATTEMPTS;

    /** Lease (visibility timeout) of each delivery, for jobs that do not say. */
    private Duration defaultLease = HourglassBuilder.DEFAULT_LEASE;

    /**
     * Retry backoff steps for jobs that do not say: the n-th retry waits the n-th step, later retries the last step.
     * Defaults to 15s,3m,10m,30m,30m,1h,2h,6h,15h. For an exponential backoff use an HourglassBuilderCustomizer.
     */
    private List<Duration> defaultBackoff = new ArrayList<>(Backoff.DEFAULT_STEPS);

    /**
     * How often workers re-check every shard whatever the wake signals said (bounds the delay a lost signal causes).
     */
    private Duration sweepInterval = HourglassBuilder.DEFAULT_SWEEP_INTERVAL;

    /** Time allowed for one Redis command. */
    private Duration commandTimeout = HourglassBuilder.DEFAULT_COMMAND_TIMEOUT;

    /** Largest payload accepted by schedule. */
    private DataSize maxPayloadSize = DataSize.ofBytes(HourglassBuilder.DEFAULT_MAX_PAYLOAD_BYTES);

    /** Longest delay (or distance of a run-at instant into the future) accepted by schedule. */
    private Duration maxDelay = HourglassBuilder.DEFAULT_MAX_DELAY;

    /**
     * How long a job's id stays reserved once the job is acked, cancelled or its dead letter deleted, so that a late or
     * retried schedule of the id does not run it again; 0 turns it off.
     */
    private Duration idempotencyWindow = HourglassBuilder.DEFAULT_IDEMPOTENCY_WINDOW;

    /**
     * How long an acked job stays readable as COMPLETED, with its completion time, attempts and result; 0 (the default)
     * turns it off. Costs memory per job kept (README, "Completed jobs").
     */
    private Duration completedRetention = Duration.ZERO;

    /** Dead letters a topic keeps at most; the oldest beyond it are deleted and counted. 0 for no limit. */
    private int deadLetterMaxCount = HourglassBuilder.DEFAULT_DEAD_LETTER_MAX_COUNT;

    /** Age past which a dead letter is deleted and counted; 0 for no limit. */
    private Duration deadLetterMaxAge = HourglassBuilder.DEFAULT_DEAD_LETTER_MAX_AGE;

    /**
     * Whether to run without pub/sub wake signals, for Redis proxies without it (Codis, Twemproxy): workers then see
     * other processes' jobs at the next sweep, so pair it with a short sweep-interval.
     */
    private boolean pollingMode = false;

    /**
     * Whether this application runs the ticker of the namespace's recurring schedules (@HourglassSchedule,
     * Hourglass.schedules()), creating each due tick's job. Every process that runs it shares the work, and each tick
     * is still one job.
     */
    private boolean scheduleTicker = true;

    /**
     * Whether an unreachable Redis fails the start-up. With false the application starts anyway: the health indicator
     * reports DOWN, Hourglass retries every 2 s, and listener workers start once Redis answers.
     */
    private boolean failFast = true;

    private final Redis redis = new Redis();
    private final Replication replication = new Replication();
    private final Listener listener = new Listener();
    private final CallbackDelivery callbackDelivery = new CallbackDelivery();
    private final Health health = new Health();

    private final EmbeddedRedis embeddedRedis = new EmbeddedRedis();
    private final Metrics metrics = new Metrics();
    private final History history = new History();
    private final Tier tier = new Tier();

    /**
     * Flow control per topic (hourglass.topic-config.<topic>.rate-per-second, .burst, .max-concurrency), stored in
     * Redis at start-up for every process of the namespace; a topic not named here keeps what Redis holds.
     */
    private final Map<String, TopicConfig> topicConfig = new LinkedHashMap<>();

    /** @return whether to auto-configure Hourglass */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether to auto-configure Hourglass */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** @return the namespace */
    public String getNamespace() {
        return namespace;
    }

    /** @param namespace the namespace */
    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    /** @return shards per topic */
    public int getShards() {
        return shards;
    }

    /** @param shards shards per topic */
    public void setShards(int shards) {
        this.shards = shards;
    }

    /** @return deliveries before dead-lettering, for jobs that do not say */
    public int getDefaultMaxAttempts() {
        return defaultMaxAttempts;
    }

    /** @param defaultMaxAttempts deliveries before dead-lettering, for jobs that do not say */
    public void setDefaultMaxAttempts(int defaultMaxAttempts) {
        this.defaultMaxAttempts = defaultMaxAttempts;
    }

    /** @return the lease of each delivery, for jobs that do not say */
    public Duration getDefaultLease() {
        return defaultLease;
    }

    /** @param defaultLease the lease of each delivery, for jobs that do not say */
    public void setDefaultLease(Duration defaultLease) {
        this.defaultLease = defaultLease;
    }

    /** @return the stepped backoff's steps, for jobs that do not say */
    public List<Duration> getDefaultBackoff() {
        return defaultBackoff;
    }

    /** @param defaultBackoff the stepped backoff's steps, for jobs that do not say */
    public void setDefaultBackoff(List<Duration> defaultBackoff) {
        this.defaultBackoff = defaultBackoff;
    }

    /** @return the backstop sweep interval */
    public Duration getSweepInterval() {
        return sweepInterval;
    }

    /** @param sweepInterval the backstop sweep interval */
    public void setSweepInterval(Duration sweepInterval) {
        this.sweepInterval = sweepInterval;
    }

    /** @return the time allowed for one Redis command */
    public Duration getCommandTimeout() {
        return commandTimeout;
    }

    /** @param commandTimeout the time allowed for one Redis command */
    public void setCommandTimeout(Duration commandTimeout) {
        this.commandTimeout = commandTimeout;
    }

    /** @return the largest payload accepted */
    public DataSize getMaxPayloadSize() {
        return maxPayloadSize;
    }

    /** @param maxPayloadSize the largest payload accepted */
    public void setMaxPayloadSize(DataSize maxPayloadSize) {
        this.maxPayloadSize = maxPayloadSize;
    }

    /** @return the longest delay accepted */
    public Duration getMaxDelay() {
        return maxDelay;
    }

    /** @param maxDelay the longest delay accepted */
    public void setMaxDelay(Duration maxDelay) {
        this.maxDelay = maxDelay;
    }

    /** @return how long an id stays reserved once its job is gone ({@link Duration#ZERO}: off) */
    public Duration getIdempotencyWindow() {
        return idempotencyWindow;
    }

    /** @param idempotencyWindow how long an id stays reserved once its job is gone; 0 to 366 days */
    public void setIdempotencyWindow(Duration idempotencyWindow) {
        this.idempotencyWindow = idempotencyWindow;
    }

    /** @return how long an acked job stays readable as COMPLETED ({@link Duration#ZERO}: off) */
    public Duration getCompletedRetention() {
        return completedRetention;
    }

    /** @param completedRetention how long an acked job stays readable as COMPLETED; 0 (off) to 366 days */
    public void setCompletedRetention(Duration completedRetention) {
        this.completedRetention = completedRetention;
    }

    /** @return the dead letters a topic keeps at most; 0 for no limit */
    public int getDeadLetterMaxCount() {
        return deadLetterMaxCount;
    }

    /** @param deadLetterMaxCount the dead letters a topic keeps at most; 0 for no limit */
    public void setDeadLetterMaxCount(int deadLetterMaxCount) {
        this.deadLetterMaxCount = deadLetterMaxCount;
    }

    /** @return the age past which a dead letter is deleted ({@link Duration#ZERO}: no limit) */
    public Duration getDeadLetterMaxAge() {
        return deadLetterMaxAge;
    }

    /** @param deadLetterMaxAge the age past which a dead letter is deleted; 0 (no limit) to 3650 days */
    public void setDeadLetterMaxAge(Duration deadLetterMaxAge) {
        this.deadLetterMaxAge = deadLetterMaxAge;
    }

    /** @return whether to run without pub/sub wake signals */
    public boolean isPollingMode() {
        return pollingMode;
    }

    /** @param pollingMode whether to run without pub/sub wake signals */
    public void setPollingMode(boolean pollingMode) {
        this.pollingMode = pollingMode;
    }

    /** @return whether this application runs the ticker of the namespace's recurring schedules */
    public boolean isScheduleTicker() {
        return scheduleTicker;
    }

    /** @param scheduleTicker whether this application runs the ticker of the namespace's recurring schedules */
    public void setScheduleTicker(boolean scheduleTicker) {
        this.scheduleTicker = scheduleTicker;
    }

    /** @return whether an unreachable Redis fails the start-up */
    public boolean isFailFast() {
        return failFast;
    }

    /** @param failFast whether an unreachable Redis fails the start-up */
    public void setFailFast(boolean failFast) {
        this.failFast = failFast;
    }

    /** @return the {@code hourglass.redis.*} properties */
    public Redis getRedis() {
        return redis;
    }

    /** @return the {@code hourglass.replication.*} properties */
    public Replication getReplication() {
        return replication;
    }

    /** @return the {@code hourglass.embedded-redis.*} properties */
    public EmbeddedRedis getEmbeddedRedis() {
        return embeddedRedis;
    }

    /** @return the {@code hourglass.listener.*} properties */
    public Listener getListener() {
        return listener;
    }

    /** @return the {@code hourglass.callback-delivery.*} properties */
    public CallbackDelivery getCallbackDelivery() {
        return callbackDelivery;
    }

    /** @return the {@code hourglass.health.*} properties */
    public Health getHealth() {
        return health;
    }

    /** @return the {@code hourglass.metrics.*} properties */
    public Metrics getMetrics() {
        return metrics;
    }

    /** @return {@code hourglass.history.*}: completion events for the job history */
    public History getHistory() {
        return history;
    }

    /** @return {@code hourglass.tier.*}: the cold tier in PostgreSQL for jobs due beyond a horizon */
    public Tier getTier() {
        return tier;
    }

    /** @return the {@code hourglass.topic-config.<topic>.*} properties, by topic */
    public Map<String, TopicConfig> getTopicConfig() {
        return topicConfig;
    }

    /**
     * {@code hourglass.redis.*}: where Hourglass connects, when not where the application's Spring Data Redis connects.
     * Set at most one of the two.
     */
    public static class Redis {
        /**
         * Redis URI: redis://[user:password@]host:port[/database], rediss:// for TLS,
         * redis-sentinel://host:port,host:port#master for Sentinel. Overrides spring.data.redis.*.
         */
        private String uri;

        /** Seed nodes of a Redis Cluster, redis://[user:password@]host:port each. Overrides spring.data.redis.*. */
        private List<String> clusterNodes = new ArrayList<>();

        /**
         * PEM file of the certificates (e.g. a private CA) to trust for TLS (rediss://) connections instead of the
         * JVM's default trust store. Applies to the Spring Data Redis settings too.
         */
        private Path tlsTrustedCertificates;

        /** @return the PEM file of trusted certificates, or null for the JVM's default trust store */
        public Path getTlsTrustedCertificates() {
            return tlsTrustedCertificates;
        }

        /** @param tlsTrustedCertificates the PEM file of trusted certificates */
        public void setTlsTrustedCertificates(Path tlsTrustedCertificates) {
            this.tlsTrustedCertificates = tlsTrustedCertificates;
        }

        /** @return the Redis URI, or null */
        public String getUri() {
            return uri;
        }

        /** @param uri the Redis URI */
        public void setUri(String uri) {
            this.uri = uri;
        }

        /** @return the cluster seed nodes; empty when not set */
        public List<String> getClusterNodes() {
            return clusterNodes;
        }

        /** @param clusterNodes the cluster seed nodes */
        public void setClusterNodes(List<String> clusterNodes) {
            this.clusterNodes = clusterNodes;
        }
    }

    /**
     * {@code hourglass.replication.*}: waiting for replicas after each write that creates or moves a job (Redis WAIT),
     * which closes the loss window of asynchronous replication on failover. Not for Redis Cluster.
     */
    public static class Replication {
        /** Replicas that must confirm each schedule, reschedule and requeue; 0 does not wait. */
        private int waitForReplicas = 0;

        /** How long to wait for the replicas before the call fails. */
        private Duration waitTimeout = Duration.ofSeconds(1);

        /** @return replicas that must confirm each write; 0 for none */
        public int getWaitForReplicas() {
            return waitForReplicas;
        }

        /** @param waitForReplicas replicas that must confirm each write; 0 for none */
        public void setWaitForReplicas(int waitForReplicas) {
            this.waitForReplicas = waitForReplicas;
        }

        /** @return how long to wait for the replicas */
        public Duration getWaitTimeout() {
            return waitTimeout;
        }

        /** @param waitTimeout how long to wait for the replicas */
        public void setWaitTimeout(Duration waitTimeout) {
            this.waitTimeout = waitTimeout;
        }
    }

    /** {@code hourglass.listener.*}: defaults of {@code @HourglassListener} methods that do not say. */
    public static class Listener {
        /** Whether listener workers start with the application context. */
        private boolean autoStartup = true;

        /** Jobs one listener method handles at once. */
        private int concurrency = WorkerOptions.DEFAULT_CONCURRENCY;

        /** Most jobs one claim fetches (never more than the free handler slots). */
        private int maxBatch = WorkerOptions.DEFAULT_MAX_BATCH;

        /** How long one invocation may run before it is interrupted and the delivery fails; no limit when not set. */
        private Duration handlerTimeout;

        /**
         * How long running invocations may finish when the application stops; keep it below
         * {@code spring.lifecycle.timeout-per-shutdown-phase} (30 s by default).
         */
        private Duration shutdownGrace = ListenerDefaults.DEFAULT_SHUTDOWN_GRACE;

        /**
         * Whether listener methods run on virtual threads (Java 21 or later). When not set, they do where Spring Boot's
         * own {@code spring.threads.virtual.enabled} is true and the JVM has virtual threads.
         */
        private Boolean virtualThreads;

        /**
         * Level of the log line (logger io.hourglass.failures) written when a listener method fails and the job will be
         * retried: TRACE, DEBUG, INFO, WARN, ERROR (FATAL reads as ERROR) or OFF. The line names the topic, the job id,
         * the attempt and the error. A job's last failure, after which it goes to the dead letters, is logged at WARN
         * (ERROR when this is ERROR) unless this is OFF. Lines are rate-limited per topic.
         */
        private LogLevel failureLogLevel = LogLevel.WARN;

        /** Whether failure log lines carry the exception's stack trace. */
        private boolean logStackTraces = false;

        /** @return whether listener workers start with the application context */
        public boolean isAutoStartup() {
            return autoStartup;
        }

        /** @param autoStartup whether listener workers start with the application context */
        public void setAutoStartup(boolean autoStartup) {
            this.autoStartup = autoStartup;
        }

        /** @return jobs one listener method handles at once */
        public int getConcurrency() {
            return concurrency;
        }

        /** @param concurrency jobs one listener method handles at once */
        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }

        /** @return most jobs one claim fetches */
        public int getMaxBatch() {
            return maxBatch;
        }

        /** @param maxBatch most jobs one claim fetches */
        public void setMaxBatch(int maxBatch) {
            this.maxBatch = maxBatch;
        }

        /** @return the handler timeout, or null for none */
        public Duration getHandlerTimeout() {
            return handlerTimeout;
        }

        /** @param handlerTimeout the handler timeout, or null for none */
        public void setHandlerTimeout(Duration handlerTimeout) {
            this.handlerTimeout = handlerTimeout;
        }

        /** @return the shutdown grace */
        public Duration getShutdownGrace() {
            return shutdownGrace;
        }

        /** @param shutdownGrace the shutdown grace */
        public void setShutdownGrace(Duration shutdownGrace) {
            this.shutdownGrace = shutdownGrace;
        }

        /** @return whether listener methods run on virtual threads, or null to follow Spring Boot's setting */
        public Boolean getVirtualThreads() {
            return virtualThreads;
        }

        /** @param virtualThreads whether listener methods run on virtual threads; null follows Spring Boot's setting */
        public void setVirtualThreads(Boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
        }

        /** @return the level of failure log lines */
        public LogLevel getFailureLogLevel() {
            return failureLogLevel;
        }

        /** @param failureLogLevel the level of failure log lines; not null */
        public void setFailureLogLevel(LogLevel failureLogLevel) {
            this.failureLogLevel = failureLogLevel;
        }

        /** @return whether failure log lines carry the stack trace */
        public boolean isLogStackTraces() {
            return logStackTraces;
        }

        /** @param logStackTraces whether failure log lines carry the stack trace */
        public void setLogStackTraces(boolean logStackTraces) {
            this.logStackTraces = logStackTraces;
        }
    }

    /**
     * {@code hourglass.callback-delivery.*}: whether this application POSTs the namespace's callback jobs (those
     * scheduled with a callback URL), and how.
     */
    public static class CallbackDelivery {
        /** Whether to deliver callback jobs from this application (with the context's lifecycle). */
        private boolean enabled = false;

        /** Requests in flight at once over all topics. */
        private int concurrency = CallbackOptions.DEFAULT_CONCURRENCY;

        /** Time allowed for one request, connect to last byte. */
        private Duration timeout = CallbackOptions.DEFAULT_TIMEOUT;

        /** Content-Type of the request body. */
        private String contentType = CallbackOptions.DEFAULT_CONTENT_TYPE;

        /**
         * HMAC-SHA256 key (at least 16 characters) to sign each request with (header Hourglass-Signature, v2: over the
         * timestamp, topic, job id, attempt, URL and body); unsigned when not set.
         */
        private String signingSecret;

        /**
         * The key (at least 16 characters) that will replace signing-secret: while set, each request carries a second
         * v2 signature made with it, so that receivers can switch keys one by one. Needs signing-secret.
         */
        private String nextSigningSecret;

        /**
         * Whether requests are sent from virtual threads (Java 21 or later). When not set, they are where Spring Boot's
         * own {@code spring.threads.virtual.enabled} is true and the JVM has virtual threads.
         */
        private Boolean virtualThreads;

        /**
         * Hosts callback URLs may point to: names (api.example.com), wildcards (*.example.com), IP addresses or CIDR
         * ranges (10.0.0.0/8). Checked when a job is scheduled and again on each connection, after DNS. Internal
         * addresses (loopback, private, link-local, metadata, ...) are refused unless an address or range here covers
         * them; empty allows every public address. Applies to scheduling even when enabled is false.
         */
        private List<String> allowList = new ArrayList<>();

        /**
         * Level of the log line (logger io.hourglass.failures) written when a callback request fails and the job will
         * be retried: TRACE, DEBUG, INFO, WARN, ERROR (FATAL reads as ERROR) or OFF. The line names the topic, the job
         * id, the attempt and the error. A job's last failure, after which it goes to the dead letters, is logged at
         * WARN (ERROR when this is ERROR) unless this is OFF. Lines are rate-limited per topic.
         */
        private LogLevel failureLogLevel = LogLevel.WARN;

        /** Whether failure log lines carry the exception's stack trace. */
        private boolean logStackTraces = false;

        /** @return whether to deliver callback jobs */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether to deliver callback jobs */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** @return requests in flight at once */
        public int getConcurrency() {
            return concurrency;
        }

        /** @param concurrency requests in flight at once */
        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }

        /** @return the time allowed for one request */
        public Duration getTimeout() {
            return timeout;
        }

        /** @param timeout the time allowed for one request */
        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        /** @return the request body's content type */
        public String getContentType() {
            return contentType;
        }

        /** @param contentType the request body's content type */
        public void setContentType(String contentType) {
            this.contentType = contentType;
        }

        /** @return the signing key, or null for unsigned requests */
        public String getSigningSecret() {
            return signingSecret;
        }

        /** @param signingSecret the signing key, or null for unsigned requests */
        public void setSigningSecret(String signingSecret) {
            this.signingSecret = signingSecret;
        }

        /** @return the key that will replace the signing key, or null when no rotation is under way */
        public String getNextSigningSecret() {
            return nextSigningSecret;
        }

        /** @param nextSigningSecret the key that will replace the signing key, or null */
        public void setNextSigningSecret(String nextSigningSecret) {
            this.nextSigningSecret = nextSigningSecret;
        }

        /** @return whether requests are sent from virtual threads, or null to follow Spring Boot's setting */
        public Boolean getVirtualThreads() {
            return virtualThreads;
        }

        /** @param virtualThreads whether requests are sent from virtual threads; null follows Spring Boot's setting */
        public void setVirtualThreads(Boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
        }

        /** @return the hosts callback URLs may point to; empty for every public address */
        public List<String> getAllowList() {
            return allowList;
        }

        /** @param allowList the hosts callback URLs may point to */
        public void setAllowList(List<String> allowList) {
            this.allowList = allowList;
        }

        /** @return the level of failure log lines */
        public LogLevel getFailureLogLevel() {
            return failureLogLevel;
        }

        /** @param failureLogLevel the level of failure log lines; not null */
        public void setFailureLogLevel(LogLevel failureLogLevel) {
            this.failureLogLevel = failureLogLevel;
        }

        /** @return whether failure log lines carry the stack trace */
        public boolean isLogStackTraces() {
            return logStackTraces;
        }

        /** @param logStackTraces whether failure log lines carry the stack trace */
        public void setLogStackTraces(boolean logStackTraces) {
            this.logStackTraces = logStackTraces;
        }

        /**
         * How many times a receiver may defer one job (429 or 503 with Retry-After) without an attempt being charged;
         * past it such an answer is a failed attempt.
         */
        private int maxDeferrals = CallbackOptions.DEFAULT_MAX_DEFERRALS;

        /** The longest a callback request may take for a job with its own dispatch deadline (longer ones are cut). */
        private Duration maxDispatchDeadline = CallbackOptions.DEFAULT_MAX_DISPATCH_DEADLINE;

        /** @return the deferrals by Retry-After allowed per job */
        public int getMaxDeferrals() {
            return maxDeferrals;
        }

        /** @param maxDeferrals the deferrals by Retry-After allowed per job */
        public void setMaxDeferrals(int maxDeferrals) {
            this.maxDeferrals = maxDeferrals;
        }

        /** @return the longest dispatch deadline a job's requests may have */
        public Duration getMaxDispatchDeadline() {
            return maxDispatchDeadline;
        }

        /** @param maxDispatchDeadline the longest dispatch deadline a job's requests may have */
        public void setMaxDispatchDeadline(Duration maxDispatchDeadline) {
            this.maxDispatchDeadline = maxDispatchDeadline;
        }
    }

    /** {@code hourglass.embedded-redis.*}: a development Redis run by the application. */
    public static class EmbeddedRedis {
        /**
         * Whether to run a redis-server with the application and connect to it, for local development only; needs
         * io.hourglass:hourglass-embedded on the class path. Its data is lost when the application stops.
         */
        private boolean enabled;

        /** @return whether to run an embedded redis-server */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether to run an embedded redis-server */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /**
     * {@code hourglass.health.*}: the health indicator (enable or disable it with management.health.hourglass.enabled).
     */
    public static class Health {
        /**
         * How long a topic with a running listener may have ready jobs, free handler slots in this application and no
         * delivery before the health indicator reports DOWN (promotion stalled).
         */
        private Duration stallThreshold = Duration.ofMinutes(1);

        /** @return the stall threshold */
        public Duration getStallThreshold() {
            return stallThreshold;
        }

        /** @param stallThreshold the stall threshold */
        public void setStallThreshold(Duration stallThreshold) {
            this.stallThreshold = stallThreshold;
        }
    }

    /**
     * {@code hourglass.topic-config.<topic>.*}: a topic's flow control ({@link io.hourglass.TopicConfig}), enforced in
     * Redis across every process; 0 leaves a limit off.
     */
    public static class TopicConfig {
        /** Deliveries per second across every worker of the topic; 0 for no rate limit. */
        private double ratePerSecond;

        /** Deliveries allowed at once after an idle time; 0 for one second's worth (at least one per shard). */
        private int burst;

        /** Most jobs ACTIVE at once across every worker of the topic; 0 for no cap. */
        private int maxConcurrency;

        /** @return deliveries per second; 0 for none */
        public double getRatePerSecond() {
            return ratePerSecond;
        }

        /** @param ratePerSecond deliveries per second; 0 for none */
        public void setRatePerSecond(double ratePerSecond) {
            this.ratePerSecond = ratePerSecond;
        }

        /** @return the burst; 0 for the default */
        public int getBurst() {
            return burst;
        }

        /** @param burst the burst; 0 for the default */
        public void setBurst(int burst) {
            this.burst = burst;
        }

        /** @return most jobs ACTIVE at once; 0 for no cap */
        public int getMaxConcurrency() {
            return maxConcurrency;
        }

        /** @param maxConcurrency most jobs ACTIVE at once; 0 for no cap */
        public void setMaxConcurrency(int maxConcurrency) {
            this.maxConcurrency = maxConcurrency;
        }

        /**
         * @return the core's configuration
         * @throws IllegalArgumentException naming the field when a value is out of range
         */
        public io.hourglass.TopicConfig toConfig() {
            return new io.hourglass.TopicConfig(ratePerSecond, burst, maxConcurrency);
        }
    }

    /** {@code hourglass.metrics.*}: the Micrometer meters. */
    public static class Metrics {
        /** How often the per-topic job gauges (hourglass.topic.jobs) are read from Redis; not on every scrape. */
        private Duration refreshInterval = Duration.ofSeconds(15);

        /** @return how often the per-topic gauges are refreshed */
        public Duration getRefreshInterval() {
            return refreshInterval;
        }

        /** @param refreshInterval how often the per-topic gauges are refreshed */
        public void setRefreshInterval(Duration refreshInterval) {
            this.refreshInterval = refreshInterval;
        }
    }

    /**
     * {@code hourglass.history.*}: completion events for the job history ({@code HourglassBuilder.historyEvents}) and,
     * with {@code hourglass-history-jdbc} on the class path and {@code hourglass.history.jdbc.url} set, the archiver
     * that moves them into PostgreSQL. Off by default.
     */
    public static class History {
        /** Each shard's stream cap when jdbc.url is set and stream-length is not. */
        public static final long DEFAULT_ARCHIVED_STREAM_LENGTH = 100_000;

        /**
         * Cap of each shard's completion-event stream, in events (approximate); 0 turns the events off. When not set:
         * 100000 with jdbc.url (an archiver needs the events), else 0.
         */
        private Long streamLength;

        /** Largest payload copied into an event; a larger one is left out (its size kept). 0 copies none. */
        private DataSize payloadLimit = DataSize.ofBytes(0);

        /**
         * The PostgreSQL the archiver writes to; with a url (and hourglass-history-jdbc on the class path) the
         * application runs an archiver and has a HistoryStore bean.
         */
        private final Jdbc jdbc = new Jdbc();

        /** How long the history keeps an entry after its job ended; 0 keeps entries forever. */
        private Duration retention = Duration.ofDays(30);

        /** The archivers' consumer group: archivers of one group share the events of the namespace. */
        private String consumerGroup = "hourglass-history";

        /**
         * This archiver's name in the group, unique among the live archivers; keep it across restarts (e.g. the pod's
         * name) so that a restarted archiver reads its own unacknowledged events again at once. A random name when not
         * set; the events of an archiver that is gone are taken over by the others after 60 s.
         */
        private String consumerName;

        /**
         * Stream entries read, written to PostgreSQL in one transaction and acknowledged together (each entry holds one
         * script call's events, up to a few hundred).
         */
        private int batchSize = 500;

        /**
         * @return the cap of each shard's event stream, in entries (one script call's events each): the one set, else
         *     {@link #DEFAULT_ARCHIVED_STREAM_LENGTH} when {@code jdbc.url} is set, else 0 (off)
         */
        public long getStreamLength() {
            if (streamLength != null) {
                return streamLength;
            }
            return jdbc.isSet() ? DEFAULT_ARCHIVED_STREAM_LENGTH : 0;
        }

        /**
         * @param streamLength the cap of each shard's event stream, in entries (one script call's events each), 0 to
         *     1,000,000,000; 0 turns it off
         */
        public void setStreamLength(long streamLength) {
            this.streamLength = streamLength;
        }

        /** @return the largest payload copied into an event */
        public DataSize getPayloadLimit() {
            return payloadLimit;
        }

        /** @param payloadLimit the largest payload copied into an event, at most 512MB; 0 copies none */
        public void setPayloadLimit(DataSize payloadLimit) {
            this.payloadLimit = payloadLimit;
        }

        /** @return the archiver's PostgreSQL */
        public Jdbc getJdbc() {
            return jdbc;
        }

        /** @return how long an entry is kept after its job ended; {@link Duration#ZERO} keeps entries forever */
        public Duration getRetention() {
            return retention;
        }

        /** @param retention how long an entry is kept after its job ended, 0 (forever) or more */
        public void setRetention(Duration retention) {
            this.retention = retention;
        }

        /** @return the archivers' consumer group */
        public String getConsumerGroup() {
            return consumerGroup;
        }

        /** @param consumerGroup the archivers' consumer group; not blank */
        public void setConsumerGroup(String consumerGroup) {
            this.consumerGroup = consumerGroup;
        }

        /** @return this archiver's name in the group, or null for a random one */
        public String getConsumerName() {
            return consumerName;
        }

        /** @param consumerName this archiver's name in the group, or null for a random one */
        public void setConsumerName(String consumerName) {
            this.consumerName = consumerName;
        }

        /** @return events per batch */
        public int getBatchSize() {
            return batchSize;
        }

        /** @param batchSize events per batch, 1 to 10,000 */
        public void setBatchSize(int batchSize) {
            this.batchSize = batchSize;
        }
    }

    /**
     * {@code hourglass.tier.*}: with {@code hourglass-tier-jdbc} on the class path and {@code hourglass.tier.jdbc.url}
     * set, jobs due beyond the horizon wait in PostgreSQL, and a feeder moves them into Redis before they come within
     * it ({@code HourglassBuilder.coldTier}). Off by default.
     */
    public static class Tier {
        /** The PostgreSQL that holds the jobs due beyond the horizon; setting its url turns the cold tier on. */
        private final Jdbc jdbc = new Jdbc();

        /**
         * Jobs due more than this far ahead are written to PostgreSQL instead of Redis; at least 1s and at most
         * max-delay. Required with jdbc.url.
         */
        private Duration horizon;

        private final Feeder feeder = new Feeder();

        /** @return the cold tier's PostgreSQL */
        public Jdbc getJdbc() {
            return jdbc;
        }

        /** @return the horizon, or null when not set */
        public Duration getHorizon() {
            return horizon;
        }

        /** @param horizon jobs due more than this far ahead go to PostgreSQL; 1 s to max-delay */
        public void setHorizon(Duration horizon) {
            this.horizon = horizon;
        }

        /** @return the {@code hourglass.tier.feeder.*} properties */
        public Feeder getFeeder() {
            return feeder;
        }

        /** {@code hourglass.tier.feeder.*}: the feeder that moves jobs from PostgreSQL into Redis. */
        public static class Feeder {
            /**
             * Whether this application runs a feeder (any number of processes may, with no leader); false for processes
             * that only schedule.
             */
            private boolean enabled = true;

            /** Jobs the feeder moves per transaction, 1 to 10000. */
            private int batchSize = 500;

            /**
             * How long before a job comes within the horizon the feeder moves it, 0 to 1d: absorbs the polling, short
             * outages and clock differences between processes.
             */
            private Duration leadTime = Duration.ofMinutes(1);

            /**
             * The feeder's wait after a pass that found less than a full batch, 10ms to 1m; keep it below lead-time.
             */
            private Duration pollInterval = Duration.ofSeconds(1);

            /** @return whether this application runs a feeder */
            public boolean isEnabled() {
                return enabled;
            }

            /** @param enabled whether this application runs a feeder */
            public void setEnabled(boolean enabled) {
                this.enabled = enabled;
            }

            /** @return jobs moved per transaction */
            public int getBatchSize() {
                return batchSize;
            }

            /** @param batchSize jobs moved per transaction, 1 to 10,000 */
            public void setBatchSize(int batchSize) {
                this.batchSize = batchSize;
            }

            /** @return how long before a job comes within the horizon it is moved */
            public Duration getLeadTime() {
                return leadTime;
            }

            /** @param leadTime how long before a job comes within the horizon it is moved, 0 to 1 day */
            public void setLeadTime(Duration leadTime) {
                this.leadTime = leadTime;
            }

            /** @return the wait after a pass that found less than a full batch */
            public Duration getPollInterval() {
                return pollInterval;
            }

            /** @param pollInterval the wait after a pass that found less than a full batch, 10 ms to 1 min */
            public void setPollInterval(Duration pollInterval) {
                this.pollInterval = pollInterval;
            }
        }
    }

    /** Where a PostgreSQL is: {@code hourglass.history.jdbc.*} and {@code hourglass.tier.jdbc.*}. */
    public static class Jdbc {
        /** PostgreSQL JDBC URL, e.g. jdbc:postgresql://db:5432/app. */
        private String url;

        /** Database user; taken from the URL when not set. */
        private String user;

        /** That user's password (never logged); also accepted as password= in the URL. */
        private String password;

        /** @return the JDBC URL, or null */
        public String getUrl() {
            return url;
        }

        /** @param url the JDBC URL */
        public void setUrl(String url) {
            this.url = url;
        }

        /** @return the database user, or null */
        public String getUser() {
            return user;
        }

        /** @param user the database user */
        public void setUser(String user) {
            this.user = user;
        }

        /** @return the password, or null */
        public String getPassword() {
            return password;
        }

        /** @param password the password */
        public void setPassword(String password) {
            this.password = password;
        }

        /** @return whether a URL is set (not blank) */
        boolean isSet() {
            return url != null && !url.isBlank();
        }

        /** @return the settings with the password, and a {@code password=} in the URL, masked */
        @Override
        public String toString() {
            return "Jdbc[url=" + maskJdbcUrl(url) + ", user=" + user + ", password="
                    + (password == null ? null : "****") + "]";
        }

        /**
         * @param text a JDBC URL, or a message that may quote one; null stays null
         * @return the text with the value of each {@code password=} masked
         */
        static String maskJdbcUrl(String text) {
            return text == null ? null : text.replaceAll("(?i)(password=)[^&;\\s)'\"]*", "$1****");
        }
    }
}
