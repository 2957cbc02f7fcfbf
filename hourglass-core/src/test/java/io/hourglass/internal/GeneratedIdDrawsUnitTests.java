package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobState;
import io.hourglass.ScheduleResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The redraw of a generated id that turns out taken ({@link Producer#drawingIds}), with ids standing for requests. */
class GeneratedIdDrawsUnitTests {

    private static final Instant DUE = Instant.ofEpochMilli(1_000);

    private static ScheduleResult created(String id) {
        return new ScheduleResult(id, "t", JobState.SCHEDULED, DUE, ScheduleResult.Outcome.CREATED);
    }

    /** Routes each id once: the taken ones fail as {@code schedule.lua} reports a taken id (thrown in a stage). */
    private static Function<String, CompletableFuture<ScheduleResult>> route(List<String> taken, List<String> routed) {
        return id -> {
            routed.add(id);
            return CompletableFuture.completedFuture(id).thenApply(i -> {
                if (taken.contains(i)) {
                    throw new JobAlreadyExistsException(
                            new ScheduleResult(i, "t", JobState.SCHEDULED, DUE, ScheduleResult.Outcome.KEPT));
                }
                return created(i);
            });
        };
    }

    @Test
    void aTakenIdIsDrawnAgainUntilOneIsFree() {
        List<String> routed = new ArrayList<>();
        Iterator<String> draws = List.of("b", "c").iterator();

        ScheduleResult r = Producer.drawingIds("a", draws::next, route(List.of("a", "b"), routed), 4)
                .join();

        assertThat(r.id()).isEqualTo("c");
        assertThat(routed).containsExactly("a", "b", "c");
    }

    @Test
    void afterTheLastDrawTheConflictIsReportedAsEver() {
        List<String> routed = new ArrayList<>();
        Iterator<String> draws = List.of("b", "c", "d").iterator();

        CompletableFuture<ScheduleResult> r =
                Producer.drawingIds("a", draws::next, route(List.of("a", "b", "c", "d"), routed), 3);

        assertThatThrownBy(r::join)
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(JobAlreadyExistsException.class);
        assertThat(routed).containsExactly("a", "b", "c");
    }

    @Test
    void anyOtherFailureIsNotRetried() {
        List<String> routed = new ArrayList<>();
        Function<String, CompletableFuture<ScheduleResult>> failing = id -> {
            routed.add(id);
            return CompletableFuture.failedFuture(new IllegalStateException("down"));
        };

        CompletableFuture<ScheduleResult> r = Producer.drawingIds("a", () -> "b", failing, 4);

        assertThatThrownBy(r::join).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(routed).containsExactly("a");
    }

    @Test
    void aFailureKeepsItsShapeWrappedOrNot() {
        IllegalStateException down = new IllegalStateException("down");

        Throwable raw = Producer.drawingIds("a", () -> "b", id -> CompletableFuture.failedFuture(down), 4)
                .handle((r, e) -> e)
                .join();
        Throwable wrapped = Producer.drawingIds(
                        "a",
                        () -> "b",
                        id -> CompletableFuture.completedFuture(id).thenApply(i -> {
                            throw down;
                        }),
                        4)
                .handle((r, e) -> e)
                .join();

        assertThat(raw).isSameAs(down);
        assertThat(wrapped).isInstanceOf(CompletionException.class).hasCause(down);
    }

    @Test
    void aRedrawThatThrowsFailsTheFuture() {
        IllegalArgumentException refused = new IllegalArgumentException("runAt: too far");

        CompletableFuture<ScheduleResult> r = Producer.drawingIds(
                "a",
                () -> {
                    throw refused;
                },
                route(List.of("a"), new ArrayList<>()),
                4);

        assertThat(r.handle((x, e) -> e).join()).isSameAs(refused);
    }

    @Test
    void aRouteThatThrowsFailsTheFutureRatherThanTheCaller() {
        CompletableFuture<ScheduleResult> r = Producer.drawingIds(
                "a",
                () -> "b",
                id -> {
                    throw new JobAlreadyExistsException(created(id));
                },
                2);

        assertThatThrownBy(r::join).hasCauseInstanceOf(JobAlreadyExistsException.class);
    }
}
