package io.hourglass.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the {@link TopicWorker}s of one worker share, wired by its {@link Dispatcher}: the leases, the handler slots and
 * runner, the worker's topic workers (each freed slot is offered to all of them), its lane and batch size, and of the
 * instance only what claims need: the shard count, the sweep interval, the timer thread and Redis's clock. Not the wake
 * signals: the dispatcher registers each topic worker with them, so no topic worker subscribes itself to a part below
 * it.
 *
 * @param topicWorkers a live view of the worker's topic workers, this one among them
 * @param pacing the callback dispatcher's per-topic windows of requests in flight; null for a worker of handlers
 */
record WorkerParts(
        Leases leases,
        HandlerSlots slots,
        JobRunner runner,
        Collection<TopicWorker> topicWorkers,
        Lane lane,
        int maxBatch,
        int shards,
        Duration sweepInterval,
        ScheduledExecutorService timer,
        ServerClock clock,
        CallbackPacing pacing) {}
