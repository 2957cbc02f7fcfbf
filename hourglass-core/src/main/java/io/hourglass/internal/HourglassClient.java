package io.hourglass.internal;

import io.hourglass.CallbackOptions;
import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.HourglassSettings;
import io.hourglass.JobHandler;
import io.hourglass.JobInfo;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.ScheduleResult;
import io.hourglass.Schedules;
import io.hourglass.TopicStats;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The implementation of {@link Hourglass}: builds the shared {@link ClientContext} and the three sides on it (the
 * {@link Producer}, the {@link Consumer}, the {@link Inspection}), and the {@link RedisInspector}, and hands each call
 * to its side.
 */
final class HourglassClient implements Hourglass {
    private final ClientContext context;
    private final Producer producer;
    private final Consumer consumer;
    private final Inspection inspector;
    private final RedisInspector redisInspector;
    private final RedisSchedules schedules;
    private final ScheduleTicker ticker;
    /** Null without a cold tier: then every producer call goes straight to the {@link Producer}. */
    private final ColdTiering tiering;

    HourglassClient(HourglassSettings settings) {
        this.context = ClientContext.open(settings);
        Scripts scripts = new Scripts(context.redis(), context.layout(), settings);
        TopicRegistry topics = new TopicRegistry(context.redis(), context.layout());
        this.producer = new Producer(context, scripts, topics);
        this.tiering = settings.coldTier() == null ? null : new ColdTiering(context, scripts, producer);
        this.consumer = new Consumer(context, new Leases(context, scripts), topics);
        this.inspector = new Inspection(context, scripts, topics);
        this.redisInspector = new RedisInspector(context, scripts, topics);
        ScheduleStore scheduleStore = new ScheduleStore(context.redis(), context.layout());
        this.schedules = new RedisSchedules(context, scheduleStore);
        this.ticker = settings.scheduleTicker() ? new ScheduleTicker(context, scheduleStore, producer) : null;
        if (tiering != null) {
            try {
                tiering.start();
            } catch (RuntimeException e) {
                // A tier another instance runs already: this one never started, so it leaves the tier alone.
                context.closed().set(true);
                consumer.close();
                context.shutdown();
                throw e;
            }
        }
        if (ticker != null) {
            ticker.start();
        }
    }

    @Override
    public String namespace() {
        return context.settings().namespace();
    }

    @Override
    public int shards() {
        return context.settings().shards();
    }

    @Override
    public HourglassSettings settings() {
        return context.settings();
    }

    @Override
    public ScheduleResult schedule(JobRequest request) {
        return context.redis().await(scheduleAsync(request), "schedule");
    }

    @Override
    public CompletableFuture<ScheduleResult> scheduleAsync(JobRequest request) {
        return tiering == null ? producer.schedule(request) : tiering.schedule(request);
    }

    @Override
    public List<CompletableFuture<ScheduleResult>> scheduleAll(List<JobRequest> requests) {
        return tiering == null ? Hourglass.super.scheduleAll(requests) : tiering.scheduleAll(requests);
    }

    @Override
    public Optional<JobInfo> get(String topic, String id) {
        return tiering == null ? producer.get(topic, id) : tiering.get(topic, id);
    }

    @Override
    public boolean cancel(String topic, String id) {
        return tiering == null ? producer.cancel(topic, id) : tiering.cancel(topic, id);
    }

    @Override
    public Optional<ScheduleResult> reschedule(String topic, String id, Instant runAt) {
        return tiering == null ? producer.reschedule(topic, id, runAt) : tiering.reschedule(topic, id, runAt);
    }

    @Override
    public Optional<ScheduleResult> reschedule(String topic, String id, Duration delay) {
        return tiering == null ? producer.reschedule(topic, id, delay) : tiering.reschedule(topic, id, delay);
    }

    @Override
    public Worker subscribe(String topic, JobHandler handler, WorkerOptions options) {
        return consumer.subscribe(topic, handler, options);
    }

    @Override
    public Worker startCallbackDelivery(CallbackOptions options) {
        return consumer.startCallbackDelivery(options);
    }

    @Override
    public List<Delivery> reserve(String topic, int max, Duration lease) {
        return context.redis().await(consumer.reserve(topic, max, lease, Duration.ZERO), "reserve");
    }

    @Override
    public CompletableFuture<List<Delivery>> reserveAsync(String topic, int max, Duration lease, Duration wait) {
        return consumer.reserve(topic, max, lease, wait);
    }

    @Override
    public void ack(String topic, String id, String receipt) {
        consumer.ack(topic, id, receipt, null);
    }

    @Override
    public void ack(String topic, String id, String receipt, byte[] result) {
        consumer.ack(topic, id, receipt, result);
    }

    @Override
    public JobState nack(String topic, String id, String receipt, String error, Duration retryDelay) {
        return consumer.nack(topic, id, receipt, error, retryDelay);
    }

    @Override
    public JobState deadLetter(String topic, String id, String receipt, String error) {
        return consumer.deadLetter(topic, id, receipt, error);
    }

    @Override
    public Instant extend(String topic, String id, String receipt, Duration lease) {
        return consumer.extend(topic, id, receipt, lease);
    }

    @Override
    public boolean topicExists(String topic) {
        return inspector.topicExists(topic);
    }

    @Override
    public List<TopicStats> topics() {
        return inspector.topics();
    }

    @Override
    public TopicStats stats(String topic) {
        return inspector.stats(topic);
    }

    @Override
    public List<JobInfo> deadLetters(String topic, int offset, int limit) {
        return inspector.deadLetters(topic, offset, limit);
    }

    @Override
    public boolean requeueDead(String topic, String id) {
        return inspector.requeueDead(topic, id);
    }

    @Override
    public boolean deleteDead(String topic, String id) {
        return inspector.deleteDead(topic, id);
    }

    @Override
    public Schedules schedules() {
        return schedules;
    }

    @Override
    public io.hourglass.Inspector inspector() {
        return redisInspector;
    }

    @Override
    public void close() {
        if (!context.closed().compareAndSet(false, true)) {
            return;
        }
        if (ticker != null) {
            ticker.close();
        }
        if (tiering != null) {
            tiering.stop();
        }
        consumer.close();
        context.shutdown();
    }
}
