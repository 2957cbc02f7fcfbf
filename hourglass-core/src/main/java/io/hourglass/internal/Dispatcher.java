package io.hourglass.internal;

import io.hourglass.JobHandler;
import io.hourglass.Worker;
import io.hourglass.WorkerOptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running {@link Worker}: one handler over one or more topics of one lane (one topic for
 * {@link io.hourglass.Hourglass#subscribe}, every topic of the namespace for callback delivery). Wires its parts and
 * owns their lifecycle: the {@link HandlerSlots} (back-pressure), the {@link JobRunner} (handler threads, ack or nack)
 * and one {@link TopicWorker} per topic, which claims jobs into free slots and which this dispatcher registers with the
 * wake signals. Closing stops the claims, lets running handlers finish within the grace period, hands back the rest and
 * sends the last acks.
 */
final class Dispatcher implements Worker {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    private final ClientContext context;
    private final String name;
    private final Lane lane;
    private final WorkerOptions options;
    private final HandlerSlots slots;
    private final JobRunner runner;
    private final WorkerParts parts;
    private final Map<String, TopicWorker> topics = new ConcurrentHashMap<>();
    private final List<Runnable> closeActions = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;

    Dispatcher(
            ClientContext context,
            Leases leases,
            String name,
            Lane lane,
            JobHandler handler,
            WorkerOptions options,
            FailureLog failures,
            CallbackPacing pacing) {
        this.context = context;
        this.name = name;
        this.lane = lane;
        this.options = options;
        this.slots = new HandlerSlots(
                options.concurrency(),
                options.maxBatch(),
                Math.min(context.redis().masters(), context.layout().shards()));
        this.runner = new JobRunner(
                context,
                leases,
                handler,
                options,
                failures,
                "hourglass-" + (lane == Lane.CALLBACK ? "callback" : "worker-" + name));
        this.parts = new WorkerParts(
                leases,
                slots,
                runner,
                topics.values(),
                lane,
                options.maxBatch(),
                context.layout().shards(),
                context.settings().sweepInterval(),
                context.timer(),
                context.clock(),
                pacing);
    }

    /** Starts claiming from {@code topic} too (callback delivery: a topic seen for the first time). */
    void addTopic(String topic) {
        if (stopping || topics.containsKey(topic)) {
            return;
        }
        TopicWorker w = new TopicWorker(parts, topic);
        // In the map before it starts: the slots its first claims free are offered to every topic, this one among them.
        if (topics.putIfAbsent(topic, w) == null) {
            closeActions.add(context.wakeBus().register(topic, lane, w));
            w.start();
        }
    }

    /** Runs {@code action} when this worker starts closing. */
    void onClose(Runnable action) {
        closeActions.add(action);
    }

    void logRedisFailure(String what, Throwable e) {
        log.warn("{} for {} failed: {}", what, name, RedisGateway.unwrap(e).toString());
    }

    @Override
    public String topic() {
        return name;
    }

    @Override
    public int activeCount() {
        return runner.activeCount();
    }

    @Override
    public boolean isRunning() {
        return !stopping;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (stopping) {
                return;
            }
            stopping = true;
        }
        runner.stop();
        slots.stop();
        closeActions.forEach(Runnable::run);
        topics.values().forEach(TopicWorker::stop);
        topics.values()
                .forEach(w -> w.awaitNoClaimInFlight(options.shutdownGrace().plusSeconds(5)));
        try {
            runner.shutdown(options.shutdownGrace());
            topics.values().forEach(TopicWorker::flushAcks);
            runner.awaitWrites(context.settings().commandTimeout().multipliedBy(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("some acks or hand-backs of {} did not complete before shutdown: {}", name, e.toString());
        }
    }
}
