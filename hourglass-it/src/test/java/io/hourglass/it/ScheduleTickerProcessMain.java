package io.hourglass.it;

import io.hourglass.Hourglass;
import java.time.Duration;

/**
 * A process that only runs the schedule ticker, for tests that kill it: creates the jobs of the namespace's due ticks
 * and prints {@code READY} once started. Its topics keep no ended id (an idempotency window of zero), so that only the
 * tick jobs' own least window keeps a tick from being created twice. Arguments: redis URI, namespace.
 */
public final class ScheduleTickerProcessMain {
    private ScheduleTickerProcessMain() {}

    public static void main(String[] args) throws Exception {
        Hourglass.builder()
                .redisUri(args[0])
                .namespace(args[1])
                .sweepInterval(Duration.ofMillis(200))
                .idempotencyWindow(Duration.ZERO)
                .build();
        System.out.println("READY");
        System.out.flush();
        Thread.currentThread().join();
    }
}
