package io.hourglass.internal;

import io.hourglass.HandlerThreads;
import io.hourglass.JobRequest;
import io.hourglass.OnConflict;
import io.hourglass.Schedule;
import io.hourglass.Schedules;
import io.hourglass.validation.Cron;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the namespace's recurring schedules into jobs, on a thread of its own ({@code hourglass-schedules-<ns>}). Each
 * pass reads the schedules (one script call: Redis's time, each schedule's latest fired tick, and the definitions when
 * their version changed), creates the job of every tick that is due by Redis's clock and later than both the schedule's
 * latest fired tick and its last change, records each created tick as the latest, and sleeps until the earliest next
 * tick, a change signal or the sweep interval, whichever comes first.
 *
 * <p>Any number of processes run this at once: a tick's job has a deterministic id and is created with
 * {@link OnConflict#KEEP}, so only the first creates it (see {@link Schedules} for why it is exactly once). A failure
 * to create a tick's job leaves the tick unrecorded, so the next pass tries it again.
 */
final class ScheduleTicker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ScheduleTicker.class);
    private static final long WARN_INTERVAL_MS = 60_000;

    private final ClientContext context;
    private final ScheduleStore store;
    private final Producer producer;
    private final Semaphore signals = new Semaphore(0);
    private final WakeBus.Listener onChange = (shard, dueMs) -> signals.release();
    private volatile Runnable unregister = () -> {};
    private final Thread thread;
    private final Map<String, Long> lastWarned = new HashMap<>();
    private volatile boolean closed;
    private String knownVersion = "";
    private Map<String, Definition> definitions = Map.of();

    private record Definition(Schedule schedule, Cron cron, long updatedAtMs) {}

    ScheduleTicker(ClientContext context, ScheduleStore store, Producer producer) {
        this.context = context;
        this.store = store;
        this.producer = producer;
        this.thread = HandlerThreads.factory(
                        "hourglass-schedules-" + context.settings().namespace(), false)
                .newThread(this::run);
    }

    void start() {
        // schedules.lua publishes its change signal as a worker-lane wake of the topic '.schedules'.
        unregister = context.wakeBus().register(ScheduleStore.CHANGE_TOPIC, Lane.WORKER, onChange);
        thread.start();
    }

    private void run() {
        long sweepMs = context.settings().sweepInterval().toMillis();
        while (!closed) {
            signals.drainPermits();
            long waitMs;
            try {
                waitMs = pass();
            } catch (RuntimeException e) {
                if (closed || context.isClosed()) {
                    return;
                }
                warn("", "schedule ticker cannot read the schedules, trying again in " + sweepMs + " ms: " + e);
                waitMs = sweepMs;
            }
            try {
                signals.tryAcquire(Math.max(1, waitMs), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One pass; returns how long to sleep before the next, ms. */
    private long pass() {
        ScheduleStore.Snapshot snapshot = store.read(knownVersion);
        long readAt = System.nanoTime();
        if (snapshot.definitions() != null) {
            Map<String, Definition> fresh = new HashMap<>();
            snapshot.definitions()
                    .forEach((name, stored) -> fresh.put(
                            name,
                            new Definition(
                                    stored.schedule(),
                                    Cron.parse(
                                            stored.schedule().cron(),
                                            stored.schedule().zone()),
                                    stored.updatedAtMs())));
            snapshot.unreadable().forEach((name, why) -> warn(name, "schedule " + name + " is skipped: " + why));
            definitions = fresh;
            knownVersion = snapshot.version();
        }
        long now = snapshot.nowMs();
        long wakeAt = now + context.settings().sweepInterval().toMillis();
        for (Definition d : definitions.values()) {
            if (closed) {
                return 0;
            }
            Instant next = fireDue(d, snapshot.fired().get(d.schedule().name()), now);
            if (next != null) {
                wakeAt = Math.min(wakeAt, next.toEpochMilli());
            }
        }
        return wakeAt - now - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - readAt);
    }

    /**
     * Creates the jobs of the schedule's due ticks, earliest first, stopping at the first that fails.
     *
     * @return the schedule's first tick after {@code now}, or null when it has none
     */
    private Instant fireDue(Definition d, Long firedMs, long now) {
        long baseline = Math.max(firedMs == null ? Long.MIN_VALUE : firedMs, d.updatedAtMs());
        for (Instant tick : dueTicks(d.cron(), d.schedule().misfirePolicy(), baseline, now)) {
            if (closed || !fire(d.schedule(), tick)) {
                break;
            }
        }
        return d.cron().next(Instant.ofEpochMilli(now));
    }

    /**
     * The ticks to fire now, earliest first: every tick in ({@code baselineMs}, {@code nowMs}] that is at most
     * {@link Schedules#MISFIRE_THRESHOLD} old, preceded, under {@link Schedule.MisfirePolicy#FIRE_ONCE}, by the latest
     * older one when there is one.
     *
     * @param baselineMs the latest tick already fired, or the schedule's last change if later (epoch ms)
     * @param nowMs Redis's time (epoch ms)
     */
    static List<Instant> dueTicks(Cron cron, Schedule.MisfirePolicy policy, long baselineMs, long nowMs) {
        long onTimeAfter = nowMs - Schedules.MISFIRE_THRESHOLD.toMillis();
        List<Instant> ticks = new ArrayList<>();
        long from = baselineMs;
        if (baselineMs < onTimeAfter) {
            from = onTimeAfter;
            if (policy == Schedule.MisfirePolicy.FIRE_ONCE) {
                Instant latestMissed = cron.previous(Instant.ofEpochMilli(onTimeAfter + 1));
                if (latestMissed != null && latestMissed.toEpochMilli() > baselineMs) {
                    ticks.add(latestMissed);
                }
            }
        }
        for (Instant t = cron.next(Instant.ofEpochMilli(from));
                t != null && t.toEpochMilli() <= nowMs;
                t = cron.next(t)) {
            ticks.add(t);
        }
        return ticks;
    }

    private boolean fire(Schedule s, Instant tick) {
        String id = Schedules.tickId(s.name(), tick);
        Duration window = context.settings().idempotencyWindow(s.topic());
        JobRequest.Builder request = JobRequest.builder(s.topic())
                .id(id)
                .payload(s.payload())
                .runAt(tick)
                .onConflict(OnConflict.KEEP)
                .idempotencyWindow(
                        window.compareTo(Schedules.MIN_TICK_IDEMPOTENCY_WINDOW) < 0
                                ? Schedules.MIN_TICK_IDEMPOTENCY_WINDOW
                                : window);
        if (s.callbackUrl() != null) {
            request.callbackUrl(s.callbackUrl());
        }
        if (s.maxAttempts() != null) {
            request.maxAttempts(s.maxAttempts());
        }
        if (s.lease() != null) {
            request.lease(s.lease());
        }
        try {
            context.redis().await(producer.schedule(request.build()), "schedule of tick " + id);
            store.markFired(s.name(), tick.toEpochMilli());
            return true;
        } catch (RuntimeException e) {
            if (!closed && !context.isClosed()) {
                warn(
                        s.name(),
                        "schedule " + s.name() + " could not create the job " + id + " of topic " + s.topic()
                                + ", trying again at the next pass: " + e);
            }
            return false;
        }
    }

    /** Logs at WARN, at most once a minute per schedule ("" for the ticker itself). Ticker thread only. */
    private void warn(String key, String message) {
        long now = System.currentTimeMillis();
        Long last = lastWarned.get(key);
        if (last == null || now - last >= WARN_INTERVAL_MS) {
            lastWarned.put(key, now);
            log.warn(message);
        }
    }

    /** Stops the ticker; a pass in progress ends after its current Redis call. */
    @Override
    public void close() {
        closed = true;
        unregister.run();
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
