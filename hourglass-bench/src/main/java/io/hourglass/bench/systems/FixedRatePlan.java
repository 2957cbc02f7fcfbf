package io.hourglass.bench.systems;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Due times spaced evenly at a rate, and a paced producer that schedules each job about {@code lead} before it is due,
 * so that jobs come due steadily while producing goes on.
 *
 * @param firstDueMillis due time of job 0 (epoch ms)
 * @param perSecond jobs due per second
 * @param jobs jobs in all
 * @param lead how long before its due time a job is scheduled
 */
public record FixedRatePlan(long firstDueMillis, int perSecond, int jobs, Duration lead) {
    private static final int IN_FLIGHT = 512;
    private static final long TICK_MILLIS = 5;

    /**
     * @param perSecond jobs due per second
     * @param duration how long jobs come due
     * @param lead how long before its due time each job is scheduled
     * @return a plan whose first job is due shortly after {@code lead} from now
     */
    public static FixedRatePlan startingNow(int perSecond, Duration duration, Duration lead) {
        int jobs = (int) (perSecond * duration.toMillis() / 1000);
        return new FixedRatePlan(System.currentTimeMillis() + lead.toMillis() + 100, perSecond, jobs, lead);
    }

    /**
     * @param i job index
     * @return its due time (epoch ms)
     */
    public long dueOf(int i) {
        return firstDueMillis + (i * 1000L) / perSecond;
    }

    /**
     * Schedules every job of the plan, each when its due time is {@link #lead()} away; returns when all calls are
     * answered.
     *
     * @param schedule schedules job {@code i} (due at {@link #dueOf(int)}) asynchronously
     * @throws Exception the first failure
     */
    public void produce(IntFunction<CompletionStage<?>> schedule) throws Exception {
        Semaphore slots = new Semaphore(IN_FLIGHT);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int next = 0;
        while (next < jobs && failure.get() == null) {
            long horizon = System.currentTimeMillis() + lead.toMillis();
            while (next < jobs && dueOf(next) <= horizon) {
                slots.acquire();
                schedule.apply(next++).whenComplete((r, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                    slots.release();
                });
            }
            Thread.sleep(TICK_MILLIS);
        }
        slots.acquire(IN_FLIGHT);
        if (failure.get() != null) {
            throw new IllegalStateException("scheduling failed", failure.get());
        }
    }
}
