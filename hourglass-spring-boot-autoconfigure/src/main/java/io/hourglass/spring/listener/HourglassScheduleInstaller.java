package io.hourglass.spring.listener;

import io.hourglass.Hourglass;
import io.hourglass.Schedule;
import io.hourglass.ScheduleInfo;
import io.hourglass.spring.DeferredHourglass;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Puts the {@link io.hourglass.spring.HourglassSchedule} schedules when the application context starts (with an
 * instance not connected yet, once it connects). A put of an unchanged definition changes nothing in Redis, so every
 * instance of the application does it. Thread-safe.
 */
public class HourglassScheduleInstaller implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(HourglassScheduleInstaller.class);

    private final Hourglass hourglass;
    private final HourglassScheduleRegistrar registrar;
    private volatile boolean running;

    /**
     * @param hourglass the instance the schedules are put with; not null
     * @param registrar where the annotated methods were found; not null
     */
    public HourglassScheduleInstaller(Hourglass hourglass, HourglassScheduleRegistrar registrar) {
        this.hourglass = Objects.requireNonNull(hourglass, "hourglass");
        this.registrar = Objects.requireNonNull(registrar, "registrar");
    }

    @Override
    public void start() {
        running = true;
        DeferredHourglass.whenConnected(hourglass, this::putAll);
    }

    private void putAll() {
        for (Schedule schedule : registrar.schedules()) {
            ScheduleInfo stored = hourglass.schedules().put(schedule);
            log.info(
                    "Hourglass schedule '{}' ('{}' in {}) creates jobs of topic '{}'; next at {}",
                    schedule.name(),
                    schedule.cron(),
                    schedule.zone(),
                    schedule.topic(),
                    stored.nextFireTimes().isEmpty()
                            ? "never"
                            : stored.nextFireTimes().get(0));
        }
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
