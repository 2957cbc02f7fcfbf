package io.hourglass.history.jdbc;

import io.hourglass.Hourglass;
import java.time.Duration;

/**
 * A worker in a process of its own whose handler never returns, for a test that kills it with SIGKILL: prints
 * {@code RUNNING <id>} when a job starts. Arguments: Redis URI, namespace, topic.
 */
public final class HangingWorkerMain {
    private HangingWorkerMain() {}

    public static void main(String[] args) throws Exception {
        Hourglass hourglass = Hourglass.builder()
                .redisUri(args[0])
                .namespace(args[1])
                .sweepInterval(Duration.ofMillis(100))
                .historyEvents(10_000, 0)
                .build();
        hourglass.subscribe(args[2], job -> {
            synchronized (System.out) {
                System.out.println("RUNNING " + job.id());
                System.out.flush();
            }
            Thread.sleep(Long.MAX_VALUE);
        });
        Thread.currentThread().join();
    }
}
