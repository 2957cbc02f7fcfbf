package io.hourglass.spring.testsuite;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.Job;
import io.hourglass.Schedule;
import io.hourglass.ScheduleInfo;
import io.hourglass.spring.HourglassListener;
import io.hourglass.spring.HourglassSchedule;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link HourglassSchedule} on a listener method: its schedule is put at start-up for the listener's topic, each tick
 * reaches the method as a job, a restart with the same annotation changes nothing, and a bad annotation fails the
 * start-up naming the bean and the method.
 */
@RedisTest
public abstract class ScheduleAnnotationSuite extends SuiteSupport {

    @Test
    void anAnnotatedListenerReceivesEachTickOfItsSchedule(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean(EverySecond.class)
                .withPropertyValues("app.zone=Europe/Berlin")
                .run(context -> {
                    Job first = context.getBean(EverySecond.class).ticks.poll(10, TimeUnit.SECONDS);
                    assertThat(first).isNotNull();
                    assertThat(first.id())
                            .isEqualTo("schedule:heartbeat:" + first.dueAt().toEpochMilli());
                    assertThat(first.payloadAsString()).isEqualTo("{\"beat\":true}");
                    ScheduleInfo stored = context.getBean(Hourglass.class)
                            .schedules()
                            .get("heartbeat")
                            .orElseThrow();
                    assertThat(stored.schedule().topic()).isEqualTo("heartbeats");
                    assertThat(stored.schedule().zone().getId()).isEqualTo("Europe/Berlin");
                    assertThat(stored.schedule().misfirePolicy()).isEqualTo(Schedule.MisfirePolicy.SKIP);
                    Job second = context.getBean(EverySecond.class).ticks.poll(5, TimeUnit.SECONDS);
                    assertThat(second.dueAt()).isAfter(first.dueAt());
                });
    }

    @Test
    void anotherInstanceStartingWithTheSameAnnotationChangesNothing(HourglassFactory redis) {
        Instant[] updatedAt = new Instant[2];
        for (int i = 0; i < 2; i++) {
            int run = i;
            runner(redis.redisUri(), redis.namespace())
                    .withBean(EverySecond.class)
                    .withPropertyValues("app.zone=Europe/Berlin", "hourglass.schedule-ticker=false")
                    .run(context -> {
                        Hourglass hourglass = context.getBean(Hourglass.class);
                        assertThat(hourglass.settings().scheduleTicker()).isFalse();
                        updatedAt[run] = hourglass
                                .schedules()
                                .get("heartbeat")
                                .orElseThrow()
                                .updatedAt();
                    });
        }
        assertThat(updatedAt[1]).isEqualTo(updatedAt[0]);
        redis.create(b -> b.scheduleTicker(false)).schedules().delete("heartbeat");
    }

    @Test
    void aBadCronFailsTheStartUpNamingTheBeanAndTheMethod(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean("badCron", BadCron.class)
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("Invalid @HourglassSchedule on bean 'badCron', method BadCron.tick: cron:")));
    }

    @Test
    void aScheduleWithoutAListenerFailsTheStartUp(HourglassFactory redis) {
        runner(redis.redisUri(), redis.namespace())
                .withBean("noListener", NoListener.class)
                .run(context -> assertThat(context).hasFailed().getFailure().satisfies(failure -> assertThat(
                                messages(failure))
                        .contains("Invalid @HourglassSchedule on bean 'noListener', method NoListener.tick:"
                                + " the method must also be an @HourglassListener")));
    }

    /** Receives the jobs of a schedule that fires every second. */
    public static class EverySecond {
        final BlockingQueue<Job> ticks = new LinkedBlockingQueue<>();

        @HourglassListener(topic = "heartbeats")
        @HourglassSchedule(
                name = "heartbeat",
                cron = "* * * * * *",
                zone = "${app.zone}",
                payload = "{\"beat\":true}",
                misfirePolicy = "skip")
        public void tick(Job job) {
            ticks.add(job);
        }
    }

    /** A schedule whose cron expression is not one. */
    public static class BadCron {
        @HourglassListener(topic = "bad")
        @HourglassSchedule(name = "bad", cron = "every day")
        public void tick(Job job) {}
    }

    /** A schedule on a method that is no listener. */
    public static class NoListener {
        @HourglassSchedule(name = "orphan", cron = "0 3 * * *")
        public void tick() {}
    }
}
