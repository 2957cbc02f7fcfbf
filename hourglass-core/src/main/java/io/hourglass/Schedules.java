package io.hourglass;

import io.hourglass.validation.Names;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The namespace's recurring schedules ({@link Hourglass#schedules()}): each turns the fire times of a cron expression
 * into ordinary jobs of its topic, which workers or the callback lane run like any other.
 *
 * <pre>{@code
 * hourglass.schedules().put(Schedule.builder("nightly-report", "reports", "0 3 * * *")
 *     .zone("Europe/Berlin").payload("{\"kind\":\"daily\"}").build());
 * hourglass.subscribe("reports", job -> reports.run(job.payloadAsString()));
 * }</pre>
 *
 * <p><b>Exactly one job per tick, with no leader.</b> Every process that runs the ticker
 * ({@link HourglassBuilder#scheduleTicker(boolean)}, on by default) creates each due tick's job with the id
 * {@link #tickId(String, Instant)} and {@link OnConflict#KEEP}: the first creates it, the others find it (or, once it
 * ended, its id still reserved by the idempotency window, which for tick jobs is at least
 * {@link #MIN_TICK_IDEMPOTENCY_WINDOW}), then each records the tick as the schedule's latest in Redis, so that no
 * process creates it again later. A tick could run twice only if every process running the ticker were killed in the
 * few milliseconds between creating its job and recording it, and none ran again until that job's idempotency window
 * had passed.
 *
 * <p><b>Changes</b> take effect at the next tick: a put or delete bumps a version in Redis and publishes a signal, and
 * every ticker re-reads the definitions before it fires (in polling mode, at its next sweep). A tick is fired when the
 * Redis server's clock reaches it, within milliseconds while a ticker runs, never before.
 *
 * <p>Methods throw {@link RedisUnavailableException} when Redis cannot be reached, and {@link IllegalArgumentException}
 * naming the field, with nothing changed, on bad input. Thread-safe.
 */
public interface Schedules {
    /** How many fire times {@link ScheduleInfo#nextFireTimes()} holds: {@value}. */
    int NEXT_FIRE_TIMES = 5;

    /**
     * How late a tick may be fired and still count as on time: 60 s (as Quartz's default misfire threshold). Ticks
     * older than this when a ticker finds them unfired (every process was down or stalled) are handled by the
     * schedule's {@link Schedule.MisfirePolicy}; younger ones are all fired, each as its own job.
     */
    Duration MISFIRE_THRESHOLD = Duration.ofSeconds(60);

    /**
     * Least idempotency window of a tick's job, whatever its topic's: 10 minutes. The window keeps an ended tick's id
     * reserved while processes that found the tick due at the same moment create it; with none, a tick job acked within
     * milliseconds could be created again by a slower process.
     */
    Duration MIN_TICK_IDEMPOTENCY_WINDOW = Duration.ofMinutes(10);

    /**
     * The id of a tick's job: {@code schedule:<name>:<tick as epoch ms>}, e.g. {@code schedule:nightly:1795000000000}.
     *
     * @param name a schedule's name
     * @param tick the tick's fire time; milliseconds below are dropped
     * @return the job id
     * @throws IllegalArgumentException naming {@code name} when it is not a valid schedule name
     */
    static String tickId(String name, Instant tick) {
        return "schedule:" + Names.checkScheduleName(name) + ":" + tick.toEpochMilli();
    }

    /**
     * Creates or replaces a schedule, by name. Takes effect at its next tick after this call: ticks at or before the
     * moment Redis stores it are not run under the new definition, and a replaced definition's ticks still to come are
     * not run under the old one. Putting the definition that is stored already changes nothing (not even
     * {@link ScheduleInfo#updatedAt()}), so every instance of an application may put its schedules when it starts.
     *
     * @param schedule the schedule; not null
     * @return the stored schedule with its next fire times
     * @throws IllegalArgumentException naming {@code payload} when larger than the instance's limit, or
     *     {@code callbackUrl} when the instance's callback allow-list refuses it
     */
    ScheduleInfo put(Schedule schedule);

    /**
     * @param name a schedule's name
     * @return the schedule, or empty when there is none
     * @throws IllegalArgumentException naming {@code name} when it is not a valid schedule name
     */
    Optional<ScheduleInfo> get(String name);

    /** @return every schedule of the namespace, sorted by name; never null */
    List<ScheduleInfo> list();

    /**
     * Deletes a schedule: no tick after this call creates a job. Jobs already created are left as they are.
     *
     * @param name a schedule's name
     * @return true if it existed
     * @throws IllegalArgumentException naming {@code name} when it is not a valid schedule name
     */
    boolean delete(String name);
}
