package io.hourglass.internal;

import io.hourglass.Schedule;
import io.hourglass.ScheduleInfo;
import io.hourglass.Schedules;
import io.hourglass.validation.Names;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Implements {@link Schedules} ({@code Hourglass.schedules()}) on {@link ScheduleStore}: checks a schedule against the
 * instance's limits before it is stored, and adds each schedule's next fire times to what it reads. Thread-safe.
 */
final class RedisSchedules implements Schedules {
    private final ClientContext context;
    private final ScheduleStore store;

    RedisSchedules(ClientContext context, ScheduleStore store) {
        this.context = context;
        this.store = store;
    }

    @Override
    public ScheduleInfo put(Schedule schedule) {
        Objects.requireNonNull(schedule, "schedule");
        context.checkOpen();
        int size = schedule.payload().length;
        if (size > context.settings().maxPayloadBytes()) {
            throw new IllegalArgumentException("payload: " + size + " bytes is more than the limit of "
                    + context.settings().maxPayloadBytes() + " bytes");
        }
        if (schedule.callbackUrl() != null) {
            String refusal = context.callbackAllowList().refusal(schedule.callbackUrl());
            if (refusal != null) {
                throw new IllegalArgumentException("callbackUrl: " + refusal);
            }
        }
        ScheduleStore.Put put = store.put(schedule);
        return info(new ScheduleStore.Stored(schedule, put.updatedAtMs()), put.lastTickMs(), put.updatedAtMs());
    }

    @Override
    public Optional<ScheduleInfo> get(String name) {
        Names.checkScheduleName(name);
        context.checkOpen();
        ScheduleStore.Snapshot snapshot = store.read("");
        ScheduleStore.Stored stored = snapshot.definitions().get(name);
        return stored == null
                ? Optional.empty()
                : Optional.of(info(stored, snapshot.fired().get(name), snapshot.nowMs()));
    }

    @Override
    public List<ScheduleInfo> list() {
        context.checkOpen();
        ScheduleStore.Snapshot snapshot = store.read("");
        List<ScheduleInfo> out = new ArrayList<>();
        for (String name : ScheduleStore.sortedNames(snapshot.definitions())) {
            out.add(info(snapshot.definitions().get(name), snapshot.fired().get(name), snapshot.nowMs()));
        }
        return out;
    }

    @Override
    public boolean delete(String name) {
        Names.checkScheduleName(name);
        context.checkOpen();
        return store.delete(name);
    }

    private static ScheduleInfo info(ScheduleStore.Stored stored, Long lastTickMs, long nowMs) {
        return new ScheduleInfo(
                stored.schedule(),
                Instant.ofEpochMilli(stored.updatedAtMs()),
                lastTickMs == null ? null : Instant.ofEpochMilli(lastTickMs),
                stored.schedule().nextFireTimes(Instant.ofEpochMilli(nowMs), NEXT_FIRE_TIMES));
    }
}
