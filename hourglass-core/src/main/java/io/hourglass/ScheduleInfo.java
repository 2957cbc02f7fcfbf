package io.hourglass;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A stored recurring schedule, as {@link Schedules#get(String)} and {@link Schedules#list()} return it.
 *
 * @param schedule the definition; never null
 * @param updatedAt when it was last put, by the Redis server's clock; ticks at or before it are not run
 * @param lastTick the latest tick whose job was created, or null when none was yet
 * @param nextFireTimes the next {@link Schedules#NEXT_FIRE_TIMES} fire times after the moment of reading (by the Redis
 *     server's clock), earliest first; fewer when the expression has no more; immutable, never null
 */
public record ScheduleInfo(Schedule schedule, Instant updatedAt, Instant lastTick, List<Instant> nextFireTimes) {

    /**
     * Checks the components and copies the list.
     *
     * @throws NullPointerException naming {@code schedule}, {@code updatedAt} or {@code nextFireTimes} when null
     */
    public ScheduleInfo {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(updatedAt, "updatedAt");
        nextFireTimes = List.copyOf(Objects.requireNonNull(nextFireTimes, "nextFireTimes"));
    }
}
