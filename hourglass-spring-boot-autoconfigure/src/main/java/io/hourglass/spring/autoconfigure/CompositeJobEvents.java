package io.hourglass.spring.autoconfigure;

import io.hourglass.Job;
import io.hourglass.JobEvents;
import io.hourglass.ScheduleResult;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Tells several {@link JobEvents} beans, each isolated from the others' exceptions. Thread-safe. */
final class CompositeJobEvents implements JobEvents {
    private static final Logger log = LoggerFactory.getLogger(CompositeJobEvents.class);
    private final List<JobEvents> delegates;

    CompositeJobEvents(List<JobEvents> delegates) {
        this.delegates = List.copyOf(delegates);
    }

    @Override
    public void scheduled(ScheduleResult result) {
        each(events -> events.scheduled(result));
    }

    @Override
    public void delivered(Job job, Duration lateness) {
        each(events -> events.delivered(job, lateness));
    }

    @Override
    public void acked(Job job, Duration handlerTime) {
        each(events -> events.acked(job, handlerTime));
    }

    @Override
    public void failed(Job job, Duration handlerTime, Throwable error) {
        each(events -> events.failed(job, handlerTime, error));
    }

    private void each(Consumer<JobEvents> call) {
        for (JobEvents events : delegates) {
            try {
                call.accept(events);
            } catch (RuntimeException e) {
                log.warn("JobEvents {} failed", events, e);
            }
        }
    }
}
