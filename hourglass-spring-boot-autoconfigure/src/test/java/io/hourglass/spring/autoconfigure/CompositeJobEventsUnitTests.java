package io.hourglass.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.JobEvents;
import io.hourglass.JobState;
import io.hourglass.ScheduleResult;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Several {@link JobEvents} beans are each told, whatever the others throw. */
class CompositeJobEventsUnitTests {

    @Test
    void aFailingObserverDoesNotSilenceTheOthers() {
        AtomicInteger told = new AtomicInteger();
        JobEvents failing = new JobEvents() {
            @Override
            public void scheduled(ScheduleResult result) {
                throw new IllegalStateException("broken observer");
            }
        };
        JobEvents counting = new JobEvents() {
            @Override
            public void scheduled(ScheduleResult result) {
                told.incrementAndGet();
            }
        };
        new CompositeJobEvents(List.of(failing, counting))
                .scheduled(new ScheduleResult(
                        "id", "topic", JobState.SCHEDULED, Instant.now(), ScheduleResult.Outcome.CREATED));
        assertThat(told).hasValue(1);
    }
}
