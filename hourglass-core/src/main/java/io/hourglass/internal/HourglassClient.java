package io.hourglass.internal;

import io.hourglass.Backoff;
import io.hourglass.CallbackOptions;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.HourglassException;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobEvents;
import io.hourglass.JobHandler;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.ScheduleResult;
import io.hourglass.StaleReceiptException;
import io.hourglass.TopicStats;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import io.lettuce.core.RedisURI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** The implementation of {@link Hourglass}: validation, the scripts' arguments and replies, and the workers. */
public final class HourglassClient implements Hourglass {
    /** Most expired leases one claim reaps, so one script call stays short however many workers crashed. */
    static final int REAP_LIMIT = 1000;

    private static final long TOPIC_REFRESH_NANOS = 5_000_000_000L;
    private static final int MAX_ERROR_LENGTH = 4000;
    private static final java.security.SecureRandom NONCES = new java.security.SecureRandom();

    /** Everything the builder decided. */
    public record Settings(
            List<RedisURI> redisUris,
            boolean cluster,
            String namespace,
            int shards,
            int defaultMaxAttempts,
            Duration defaultLease,
            Backoff defaultBackoff,
            Duration sweepInterval,
            Duration commandTimeout,
            int maxPayloadBytes,
            Duration maxDelay,
            boolean pollingMode,
            JobEvents events,
            int replicasToWait,
            Duration replicaWaitTimeout,
            CallbackAllowList callbackAllowList,
            java.nio.file.Path tlsTrustedCertificates) {}

    private final Settings settings;
    private final KeyLayout layout;
    private final RedisGateway redis;
    private final WakeBus wakeBus;
    private final ServerClock clock = new ServerClock();
    private final ScheduledThreadPoolExecutor timer;
    /** Topics this instance registered, with when (nanoTime): re-registered now and then in case the set was lost. */
    private final Map<String, Long> knownTopics = new ConcurrentHashMap<>();

    private final Map<String, byte[][]> keyCache = new ConcurrentHashMap<>();
    private final List<Consumer<String>> topicListeners = new CopyOnWriteArrayList<>();
    private final List<Dispatcher> dispatchers = new CopyOnWriteArrayList<>();
    /** Most acks one call carries: an ack costs Redis ~6 µs, so a full batch holds the connection ~1.5 ms. */
    static final int MAX_BATCH = 256;
    /**
     * Most schedules one call carries. A schedule costs Redis ~15 µs, four times an ack, and a claim on the same
     * shard waits behind the batch in flight; 64 (~1 ms of Redis time) keeps that wait near an ack batch's while
     * still cutting round trips 64-fold. Measured against 256 in BENCHMARKS.md ("What limits Hourglass").
     */
    static final int MAX_SCHEDULE_BATCH = 64;
    /** Most argument bytes (payloads, mostly) one batch of schedules carries, unless one job alone is larger. */
    static final int MAX_BATCH_BYTES = 1 << 20;

    private final ShardBatcher<String> acks =
            new ShardBatcher<>(MAX_BATCH, Integer.MAX_VALUE, (topic, shard, idsAndReceipts) -> call(
                            Script.ACK, topic, shard, idsAndReceipts.toArray(byte[][]::new))
                    .thenApply(HourglassClient::strings));
    private final ShardBatcher<List<Object>> schedules =
            new ShardBatcher<>(MAX_SCHEDULE_BATCH, MAX_BATCH_BYTES, (topic, shard, jobs) -> durable(
                            call(Script.SCHEDULE, topic, shard, jobs.toArray(byte[][]::new)), "schedule")
                    .thenApply(reply -> groups(reply, 3)));
    private volatile boolean closed;

    public HourglassClient(Settings settings) {
        this.settings = settings;
        this.layout = new KeyLayout(settings.namespace(), settings.shards());
        this.redis = new RedisGateway(
                settings.redisUris(), settings.cluster(), settings.commandTimeout(), settings.tlsTrustedCertificates());
        this.wakeBus = new WakeBus(layout.wakeChannelPrefix());
        this.timer = new ScheduledThreadPoolExecutor(1, daemonThreads("hourglass-timer-" + settings.namespace()));
        timer.setRemoveOnCancelPolicy(true);
        if (!settings.pollingMode()) {
            try {
                redis.subscribe(layout.wakeChannelPrefix() + "*", wakeBus::onMessage);
            } catch (RuntimeException e) {
                timer.shutdownNow();
                redis.close();
                throw e;
            }
        }
    }

    static ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    Settings settings() {
        return settings;
    }

    KeyLayout layout() {
        return layout;
    }

    WakeBus wakeBus() {
        return wakeBus;
    }

    ServerClock clock() {
        return clock;
    }

    ScheduledThreadPoolExecutor timer() {
        return timer;
    }

    RedisGateway redis() {
        return redis;
    }

    @Override
    public String namespace() {
        return settings.namespace();
    }

    @Override
    public int shards() {
        return settings.shards();
    }

    // ---- scheduling

    @Override
    public ScheduleResult schedule(JobRequest request) {
        return redis.await(scheduleAsync(request), "schedule");
    }

    @Override
    public CompletableFuture<ScheduleResult> scheduleAsync(JobRequest request) {
        Objects.requireNonNull(request, "request");
        checkOpen();
        byte[] payload = request.payload();
        if (payload.length > settings.maxPayloadBytes()) {
            throw new IllegalArgumentException("payload: " + payload.length + " bytes is more than the limit of "
                    + settings.maxPayloadBytes() + " bytes");
        }
        String mode;
        long when;
        if (request.runAt() != null) {
            mode = "at";
            when = request.runAt().toEpochMilli();
            checkDelay(Duration.ofMillis(Math.max(0, when - System.currentTimeMillis())), "runAt");
        } else {
            mode = "delay";
            when = checkDelay(request.delay(), "delay").toMillis();
        }
        String topic = request.topic();
        String id = request.id() != null ? request.id() : Names.newId();
        int maxAttempts = request.maxAttempts() != null ? request.maxAttempts() : settings.defaultMaxAttempts();
        long leaseMs = (request.lease() != null ? request.lease() : settings.defaultLease()).toMillis();
        Backoff backoff = request.backoff() != null ? request.backoff() : settings.defaultBackoff();
        String callback =
                request.callbackUrl() == null ? "" : request.callbackUrl().toString();
        if (request.callbackUrl() != null) {
            String refusal = settings.callbackAllowList().refusal(request.callbackUrl());
            if (refusal != null) {
                throw new IllegalArgumentException("callbackUrl: " + refusal);
            }
        }
        int shard = layout.shardOf(id);
        byte[][] args = {
            bytes(id), bytes(request.onConflict().name().toLowerCase(java.util.Locale.ROOT)), bytes(mode),
            bytes(Long.toString(when)), bytes(Integer.toString(maxAttempts)), bytes(Long.toString(leaseMs)),
            bytes(backoffSpec(backoff)), bytes(callback), payload
        };
        return registerTopic(topic)
                .thenCompose(ignored -> schedules.submit(topic, shard, args))
                .thenApply(reply -> {
                    String outcome = str(reply.get(0));
                    ScheduleResult result = new ScheduleResult(
                            id,
                            topic,
                            JobState.valueOf(str(reply.get(1))),
                            Instant.ofEpochMilli((Long) reply.get(2)),
                            outcome.equals("EXISTS")
                                    ? ScheduleResult.Outcome.KEPT
                                    : ScheduleResult.Outcome.valueOf(outcome));
                    if (outcome.equals("EXISTS")) {
                        throw new JobAlreadyExistsException(result);
                    }
                    if (result.outcome() != ScheduleResult.Outcome.KEPT) {
                        Events.notify(() -> settings.events().scheduled(result));
                        if (settings.pollingMode()) {
                            // No pub/sub here: at least this process's own workers hear of the job at once.
                            Lane lane = callback.isEmpty() ? Lane.WORKER : Lane.CALLBACK;
                            wakeBus.publishLocally(
                                    topic,
                                    lane.index + ":" + shard + ":"
                                            + result.dueAt().toEpochMilli());
                        }
                    }
                    return result;
                });
    }

    private Duration checkDelay(Duration delay, String field) {
        if (delay.compareTo(settings.maxDelay()) > 0) {
            throw new IllegalArgumentException(
                    field + ": " + delay + " ahead is more than the limit of " + settings.maxDelay());
        }
        return delay;
    }

    private static String backoffSpec(Backoff backoff) {
        // The default schedule is stored as '' to keep every record short.
        return backoff.equals(Backoff.DEFAULT) ? "" : backoff.spec();
    }

    private CompletableFuture<Void> registerTopic(String topic) {
        Long registeredAt = knownTopics.get(topic);
        long now = System.nanoTime();
        if (registeredAt == null) {
            // First use: register before the job exists, so whoever lists topics can find the job.
            return redis.addToSet(layout.topicsKey(), topic).thenRun(() -> {
                if (knownTopics.put(topic, now) == null) {
                    topicListeners.forEach(l -> l.accept(topic));
                }
            });
        }
        if (now - registeredAt > TOPIC_REFRESH_NANOS) {
            // The set can be lost (FLUSHALL, a restart without persistence): register again, without waiting for it.
            knownTopics.put(topic, now);
            redis.addToSet(layout.topicsKey(), topic).exceptionally(e -> null);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Optional<JobInfo> get(String topic, String id) {
        checkTopicAndId(topic, id);
        return infoOf(topic, id, redis.await(call(Script.GET, topic, layout.shardOf(id), bytes(id)), "get"));
    }

    /** The job in a reply of {@code get.lua}; empty when the job does not exist. */
    private Optional<JobInfo> infoOf(String topic, String id, List<Object> reply) {
        if (reply.isEmpty()) {
            return Optional.empty();
        }
        long leaseUntil = (Long) reply.get(3);
        return Optional.of(info(
                topic,
                id,
                JobState.valueOf(str(reply.get(0))),
                JobRecord.decode((byte[]) reply.get(1)),
                str(reply.get(2)),
                leaseUntil < 0 ? null : Instant.ofEpochMilli(leaseUntil)));
    }

    private JobInfo info(String topic, String id, JobState state, JobRecord r, String error, Instant leaseUntil) {
        return new JobInfo(
                id,
                topic,
                state,
                Instant.ofEpochMilli(r.dueMs()),
                r.attempt(state == JobState.ACTIVE),
                r.maxAttempts(),
                r.backoffOrDefault(Backoff.DEFAULT),
                Duration.ofMillis(r.leaseMs()),
                r.callbackUri(),
                r.payload(),
                error.isEmpty() ? null : error,
                leaseUntil);
    }

    @Override
    public boolean cancel(String topic, String id) {
        checkTopicAndId(topic, id);
        String outcome = str(redis.await(call(Script.CANCEL, topic, layout.shardOf(id), bytes(id), bytes("")), "cancel")
                .get(0));
        return !outcome.equals("MISSING");
    }

    @Override
    public Optional<ScheduleResult> reschedule(String topic, String id, Instant runAt) {
        Objects.requireNonNull(runAt, "runAt");
        checkDelay(Duration.ofMillis(Math.max(0, runAt.toEpochMilli() - System.currentTimeMillis())), "runAt");
        return reschedule(topic, id, "at", runAt.toEpochMilli());
    }

    @Override
    public Optional<ScheduleResult> reschedule(String topic, String id, Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("delay: must be zero or positive, got " + delay);
        }
        return reschedule(topic, id, "delay", checkDelay(delay, "delay").toMillis());
    }

    private Optional<ScheduleResult> reschedule(String topic, String id, String mode, long when) {
        checkTopicAndId(topic, id);
        List<Object> reply = redis.await(
                durable(
                        call(
                                Script.RESCHEDULE,
                                topic,
                                layout.shardOf(id),
                                bytes(id),
                                bytes(mode),
                                bytes(Long.toString(when))),
                        "reschedule"),
                "reschedule");
        String outcome = str(reply.get(0));
        if (outcome.equals("MISSING")) {
            return Optional.empty();
        }
        if (outcome.equals("DEAD")) {
            throw new HourglassException("job '" + id + "' in topic '" + topic + "' is dead: requeue it instead");
        }
        return Optional.of(new ScheduleResult(
                id,
                topic,
                JobState.valueOf(str(reply.get(1))),
                Instant.ofEpochMilli((Long) reply.get(2)),
                ScheduleResult.Outcome.REPLACED));
    }

    // ---- workers

    @Override
    public Worker subscribe(String topic, JobHandler handler, WorkerOptions options) {
        Names.checkTopic(topic);
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(options, "options");
        checkOpen();
        Dispatcher d = new Dispatcher(this, topic, Lane.WORKER, handler, options);
        dispatchers.add(d);
        d.addTopic(topic);
        return d;
    }

    @Override
    public Worker startCallbackDelivery(CallbackOptions options) {
        Objects.requireNonNull(options, "options");
        checkOpen();
        WorkerOptions workerOptions = WorkerOptions.builder()
                .concurrency(options.concurrency())
                .maxBatch(Math.min(options.concurrency(), WorkerOptions.DEFAULT_MAX_BATCH))
                .virtualThreads(options.virtualThreads())
                .build();
        Dispatcher d = new Dispatcher(
                this, "*", Lane.CALLBACK, new CallbackHandler(options, settings.callbackAllowList()), workerOptions);
        dispatchers.add(d);
        Consumer<String> onNewTopic = d::addTopic;
        topicListeners.add(onNewTopic);
        d.onClose(() -> topicListeners.remove(onNewTopic));
        Runnable discover = () -> {
            try {
                redis.members(layout.topicsKey()).forEach(d::addTopic);
            } catch (RuntimeException e) {
                d.logRedisFailure("topic discovery", e);
            }
        };
        discover.run();
        long every = settings.sweepInterval().toMillis() * 5;
        java.util.concurrent.ScheduledFuture<?> rediscovery =
                timer.scheduleWithFixedDelay(discover, every, every, java.util.concurrent.TimeUnit.MILLISECONDS);
        d.onClose(() -> rediscovery.cancel(false));
        return d;
    }

    void forget(Dispatcher d) {
        dispatchers.remove(d);
    }

    CompletableFuture<ClaimBatch> claim(String topic, int shard, Lane lane, int max, long leaseMs) {
        return claim(topic, shard, lane, max, leaseMs, ShardBatcher.Carried.none());
    }

    /** Claims, and acks on the way the deliveries in {@code carried} (their outcomes complete with the reply). */
    CompletableFuture<ClaimBatch> claim(
            String topic, int shard, Lane lane, int max, long leaseMs, ShardBatcher.Carried<String> carried) {
        List<byte[]> carriedArgs = carried.arguments();
        List<byte[]> args = new ArrayList<>(5 + carriedArgs.size());
        args.add(bytes(Integer.toString(lane.index)));
        args.add(bytes(Integer.toString(max)));
        args.add(bytes(Long.toString(leaseMs)));
        args.add(bytes(Integer.toString(REAP_LIMIT)));
        args.add(bytes(receiptNonce()));
        args.addAll(carriedArgs);
        CompletableFuture<ClaimBatch> claimed;
        try {
            claimed = call(Script.CLAIM, topic, shard, args.toArray(byte[][]::new))
                    .thenApply(ClaimBatch::parse);
        } catch (RuntimeException e) {
            claimed = CompletableFuture.failedFuture(e);
        }
        return claimed.whenComplete(
                (batch, error) -> carried.complete(batch == null ? null : batch.ackOutcomes(), error));
    }

    /** Whether {@link #close} was called. */
    boolean isClosed() {
        return closed;
    }

    /**
     * Queues the ack of a delivery handed to an in-process handler without sending it, so that the worker's next
     * claim of the shard may carry it; {@link #flushAcks} sends what no claim took.
     */
    CompletableFuture<Void> queueAck(String topic, int shard, String id, String receipt) {
        return acks.enqueue(topic, shard, bytes(id), bytes(receipt))
                .thenAccept(outcome -> refuseStale(outcome, topic, id, receipt));
    }

    /** Sends the shard's queued acks now, unless an ack call of that shard is in flight. */
    void flushAcks(String topic, int shard) {
        acks.flush(topic, shard);
    }

    /** Takes the queued acks of a shard for a claim to carry. */
    ShardBatcher.Carried<String> carryAcks(String topic, int shard) {
        return acks.carry(topic, shard);
    }

    private static String receiptNonce() {
        return Long.toHexString(NONCES.nextLong() | Long.MIN_VALUE);
    }

    // ---- pull deliveries

    @Override
    public List<Delivery> reserve(String topic, int max, Duration lease) {
        return redis.await(reserveAsync(topic, max, lease, Duration.ZERO), "reserve");
    }

    @Override
    public CompletableFuture<List<Delivery>> reserveAsync(String topic, int max, Duration lease, Duration wait) {
        Names.checkTopic(topic);
        if (max < 1 || max > 1000) {
            throw new IllegalArgumentException("max: must be between 1 and 1000, got " + max);
        }
        long leaseMs = lease == null ? 0 : Names.checkLease(lease, "lease").toMillis();
        if (wait == null || wait.isNegative() || wait.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException("wait: must be between 0 and 5 minutes, got " + wait);
        }
        checkOpen();
        return new Reservation(this, topic, max, leaseMs, wait).start();
    }

    @Override
    public void ack(String topic, String id, String receipt) {
        redis.await(ackAsync(topic, id, receipt), "ack");
    }

    CompletableFuture<Void> ackAsync(String topic, String id, String receipt) {
        checkReceipt(topic, id, receipt);
        return acks.submit(topic, layout.shardOf(id), bytes(id), bytes(receipt))
                .thenAccept(outcome -> refuseStale(outcome, topic, id, receipt));
    }

    @Override
    public JobState nack(String topic, String id, String receipt, String error, Duration retryDelay) {
        if (retryDelay != null && retryDelay.isNegative()) {
            throw new IllegalArgumentException("retryDelay: must be zero or positive, got " + retryDelay);
        }
        if (retryDelay != null) {
            checkDelay(retryDelay, "retryDelay");
        }
        return redis.await(
                nackAsync(topic, id, receipt, error, retryDelay == null ? null : retryDelay.toMillis()), "nack");
    }

    /** Nacks; a null delay means the job's own backoff after its current attempt, -1 means dead now. */
    CompletableFuture<JobState> nackAsync(String topic, String id, String receipt, String error, Long delayMs) {
        checkReceipt(topic, id, receipt);
        CompletableFuture<Long> delay =
                delayMs != null ? CompletableFuture.completedFuture(delayMs) : backoffDelay(topic, id);
        String text =
                error == null ? "" : error.length() > MAX_ERROR_LENGTH ? error.substring(0, MAX_ERROR_LENGTH) : error;
        return delay.thenCompose(ms -> call(
                        Script.NACK,
                        topic,
                        layout.shardOf(id),
                        bytes(id),
                        bytes(receipt),
                        bytes(Long.toString(ms)),
                        bytes(text)))
                .thenApply(reply -> {
                    refuseStale(reply, topic, id, receipt);
                    return JobState.valueOf(str(reply.get(1)));
                });
    }

    /** The job's backoff after its current attempt, read from its record (for pull workers that give no delay). */
    private CompletableFuture<Long> backoffDelay(String topic, String id) {
        return call(Script.GET, topic, layout.shardOf(id), bytes(id)).thenApply(reply -> infoOf(topic, id, reply)
                .map(job -> job.backoff().delayAfter(job.attempt()).toMillis())
                .orElse(0L));
    }

    @Override
    public Instant extend(String topic, String id, String receipt, Duration lease) {
        checkReceipt(topic, id, receipt);
        long ms = Names.checkLease(lease, "lease").toMillis();
        List<Object> reply = redis.await(
                call(Script.EXTEND, topic, layout.shardOf(id), bytes(id), bytes(receipt), bytes(Long.toString(ms))),
                "extend");
        refuseStale(reply, topic, id, receipt);
        return Instant.ofEpochMilli((Long) reply.get(1));
    }

    CompletableFuture<Void> releaseAsync(String topic, String id, String receipt) {
        return call(Script.RELEASE, topic, layout.shardOf(id), bytes(id), bytes(receipt))
                .thenAccept(reply -> refuseStale(reply, topic, id, receipt));
    }

    private static void checkReceipt(String topic, String id, String receipt) {
        Names.checkTopic(topic);
        Names.checkId(id);
        if (receipt == null || receipt.isEmpty() || receipt.length() > 64) {
            throw new IllegalArgumentException("receipt: must be a receipt from a delivery, got " + receipt);
        }
    }

    private static void refuseStale(List<Object> reply, String topic, String id, String receipt) {
        refuseStale(str(reply.get(0)), topic, id, receipt);
    }

    private static void refuseStale(String outcome, String topic, String id, String receipt) {
        if (!outcome.equals("OK")) {
            throw new StaleReceiptException(topic, id, receipt, !outcome.equals("MISSING"));
        }
    }

    // ---- stats and dead letters

    @Override
    public boolean topicExists(String topic) {
        Names.checkTopic(topic);
        return redis.isMember(layout.topicsKey(), topic);
    }

    @Override
    public List<TopicStats> topics() {
        List<TopicStats> out = new ArrayList<>();
        for (String topic : redis.members(layout.topicsKey())) {
            out.add(stats(topic));
        }
        return out;
    }

    @Override
    public TopicStats stats(String topic) {
        Names.checkTopic(topic);
        List<CompletableFuture<List<Object>>> calls = new ArrayList<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            calls.add(call(Script.STATS, topic, shard));
        }
        long[] sum = new long[4];
        for (CompletableFuture<List<Object>> c : calls) {
            List<Object> reply = redis.await(c, "stats");
            for (int i = 0; i < 4; i++) {
                sum[i] += (Long) reply.get(i);
            }
        }
        return new TopicStats(topic, sum[0], sum[1], sum[2], sum[3]);
    }

    @Override
    public List<JobInfo> deadLetters(String topic, int offset, int limit) {
        Names.checkTopic(topic);
        if (offset < 0) {
            throw new IllegalArgumentException("offset: must be zero or positive, got " + offset);
        }
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit: must be between 1 and 1000, got " + limit);
        }
        record Dead(long diedAt, JobInfo info) {}
        List<Dead> all = new ArrayList<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            List<Object> reply = redis.await(
                    call(Script.DEAD, topic, shard, bytes(Integer.toString(offset + limit))), "dead letters");
            for (int i = 0; i + 3 < reply.size(); i += 4) {
                byte[] raw = (byte[]) reply.get(i + 2);
                if (raw.length == 0) {
                    continue;
                }
                all.add(new Dead(
                        (Long) reply.get(i + 1),
                        info(
                                topic,
                                str(reply.get(i)),
                                JobState.DEAD,
                                JobRecord.decode(raw),
                                str(reply.get(i + 3)),
                                null)));
            }
        }
        all.sort(Comparator.comparingLong(Dead::diedAt)
                .thenComparing(d -> d.info().id()));
        return all.stream().skip(offset).limit(limit).map(Dead::info).toList();
    }

    @Override
    public boolean requeueDead(String topic, String id) {
        checkTopicAndId(topic, id);
        String outcome = str(
                redis.await(durable(call(Script.REQUEUE, topic, layout.shardOf(id), bytes(id)), "requeue"), "requeue")
                        .get(0));
        if (outcome.equals("NOT_DEAD")) {
            throw new HourglassException("job '" + id + "' in topic '" + topic + "' is not dead");
        }
        return outcome.equals("OK");
    }

    @Override
    public boolean deleteDead(String topic, String id) {
        checkTopicAndId(topic, id);
        String outcome = str(redis.await(
                        call(Script.CANCEL, topic, layout.shardOf(id), bytes(id), bytes("DEAD")), "delete dead letter")
                .get(0));
        return outcome.equals("DEAD");
    }

    @Override
    public io.hourglass.Inspector inspector() {
        return new RedisInspector(redis, layout, this::call);
    }

    // ---- plumbing

    /** The write, confirmed by the replicas the builder asked for (WAIT) before it completes. */
    private CompletableFuture<List<Object>> durable(CompletableFuture<List<Object>> write, String what) {
        if (settings.replicasToWait() == 0) {
            return write;
        }
        return write.thenCompose(reply -> redis.waitForReplicas(
                        settings.replicasToWait(), settings.replicaWaitTimeout().toMillis(), what)
                .thenApply(ignored -> reply));
    }

    CompletableFuture<List<Object>> call(Script script, String topic, int shard, byte[]... scriptArgs) {
        byte[][] keys = keyCache.computeIfAbsent(topic + "\u0000" + shard, k -> layout.shardKeys(topic, shard));
        byte[][] args = new byte[scriptArgs.length + 2][];
        args[0] = bytes(layout.wakeChannel(topic));
        args[1] = bytes(Integer.toString(shard));
        System.arraycopy(scriptArgs, 0, args, 2, scriptArgs.length);
        return redis.run(script, keys, args);
    }

    private static void checkTopicAndId(String topic, String id) {
        Names.checkTopic(topic);
        Names.checkId(id);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this Hourglass instance is closed");
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Each element of a reply as a string (see {@link #str}). */
    static List<String> strings(List<Object> reply) {
        List<String> out = new ArrayList<>(reply.size());
        for (Object o : reply) {
            out.add(str(o));
        }
        return out;
    }

    /** A flat reply cut into consecutive groups of {@code size} elements. */
    private static List<List<Object>> groups(List<Object> reply, int size) {
        List<List<Object>> out = new ArrayList<>(reply.size() / size);
        for (int i = 0; i + size <= reply.size(); i += size) {
            out.add(reply.subList(i, i + size));
        }
        return out;
    }

    static String str(Object o) {
        return o instanceof byte[] ? new String((byte[]) o, StandardCharsets.UTF_8) : String.valueOf(o);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Dispatcher d : List.copyOf(dispatchers)) {
            d.close();
        }
        timer.shutdownNow();
        redis.close();
    }
}
