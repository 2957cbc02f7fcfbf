package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.Backoff;
import io.hourglass.Hourglass;
import io.hourglass.Job;
import io.hourglass.JobEvents;
import io.hourglass.JobRequest;
import io.hourglass.ScheduleResult;
import io.hourglass.testkit.HourglassFactory;
import io.hourglass.testkit.RedisTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

@RedisTest
class JobEventsIntegrationTests {

    @Test
    void reportsSchedulingDeliveriesAcksAndFailures(HourglassFactory factory) {
        List<String> seen = new CopyOnWriteArrayList<>();
        Hourglass hourglass = factory.create(b -> b.events(new JobEvents() {
            @Override
            public void scheduled(ScheduleResult result) {
                seen.add("scheduled " + result.id());
            }

            @Override
            public void delivered(Job job, Duration lateness) {
                assertThat(lateness.isNegative()).isFalse();
                seen.add("delivered " + job.id() + " #" + job.attempt());
            }

            @Override
            public void acked(Job job, Duration handlerTime) {
                seen.add("acked " + job.id());
            }

            @Override
            public void failed(Job job, Duration handlerTime, Throwable error) {
                seen.add("failed " + job.id() + ": " + error.getMessage());
                throw new IllegalStateException("a broken listener must not disturb the queue");
            }
        }));
        hourglass.subscribe("t", job -> {
            if (job.attempt() == 1) {
                throw new IllegalArgumentException("first try fails");
            }
        });
        hourglass.schedule(JobRequest.builder("t")
                .id("e")
                .backoff(Backoff.fixed(Duration.ZERO))
                .build());
        await().atMost(Duration.ofSeconds(3)).until(() -> seen.contains("acked e"));
        // The wake signal may reach the worker before the schedule call returns, so only deliveries are ordered.
        assertThat(seen).contains("scheduled e");
        assertThat(seen.stream().filter(s -> !s.startsWith("scheduled")))
                .containsExactly("delivered e #1", "failed e: first try fails", "delivered e #2", "acked e");
    }
}
