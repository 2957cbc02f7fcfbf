package io.hourglass.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a recurring schedule ({@link io.hourglass.Schedules}) for the topic of the {@link HourglassListener} on the same
 * method: each tick of the cron expression becomes one job of that topic, which the method then runs.
 *
 * <pre>{@code
 * @HourglassListener(topic = "nightly-report")
 * @HourglassSchedule(name = "nightly-report", cron = "0 3 * * *", zone = "Europe/Berlin")
 * void report(Job job) {
 *   reports.runFor(job.dueAt());
 * }
 * }</pre>
 *
 * <p>The schedule is put when the application starts (with {@code hourglass.fail-fast=false}, once Redis answers).
 * Putting the stored definition again changes nothing, so every instance of the application may start with it; a
 * changed annotation replaces the definition from its next tick on. Removing the annotation does not delete the
 * schedule: delete it through {@code Hourglass.schedules()}, the HTTP API or the command line. Each tick is one job
 * whatever the number of instances, as long as one runs the ticker ({@code hourglass.schedule-ticker}, true by
 * default).
 *
 * <p>Every attribute is a string so that it may hold a {@code ${…}} placeholder. A bad attribute (cron, zone, name)
 * fails the application's start-up with a message naming the bean and the method.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface HourglassSchedule {

    /** @return the schedule's name, unique in the namespace: 1 to 100 characters of {@code [A-Za-z0-9._-]}; required */
    String name();

    /**
     * @return five fields ({@code minute hour day-of-month month day-of-week}) or six with seconds first, e.g.
     *     {@code "0 3 * * *"}; required
     */
    String cron();

    /** @return the time zone the cron fields are read in, e.g. {@code Europe/Berlin}; UTC by default */
    String zone() default "UTC";

    /** @return each job's payload, as UTF-8 text; empty by default */
    String payload() default "";

    /**
     * @return {@code FIRE_ONCE} (the default) to run ticks missed by more than a minute once, {@code SKIP} to not run
     *     them ({@link io.hourglass.Schedule.MisfirePolicy})
     */
    String misfirePolicy() default "FIRE_ONCE";
}
