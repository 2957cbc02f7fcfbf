package io.hourglass.it;

import io.hourglass.Hourglass;
import io.hourglass.WorkerOptions;
import java.time.Duration;

/**
 * A worker process for {@link FlowControlProcessIntegrationTests}: consumes the topics {@code rated} (printing
 * {@code RATED <lease deadline ms>} per job, the deadline by Redis's clock) and {@code capped} (each job runs 100 ms,
 * printing {@code CAPPED <start ms> <end ms>}), each with eight handlers, and prints {@code READY} once subscribed.
 * Arguments: redis URI, namespace, shards.
 */
public final class FlowControlProcessMain {
    private FlowControlProcessMain() {}

    public static void main(String[] args) throws Exception {
        Hourglass hourglass = Hourglass.builder()
                .redisUri(args[0])
                .namespace(args[1])
                .shards(Integer.parseInt(args[2]))
                .sweepInterval(Duration.ofMillis(500))
                .build();
        WorkerOptions eight = WorkerOptions.builder().concurrency(8).build();
        hourglass.subscribe(
                FlowControlProcessIntegrationTests.RATED,
                job -> print("RATED " + job.leaseUntil().toEpochMilli()),
                eight);
        hourglass.subscribe(
                FlowControlProcessIntegrationTests.CAPPED,
                job -> {
                    long start = System.currentTimeMillis();
                    Thread.sleep(100);
                    print("CAPPED " + start + " " + System.currentTimeMillis());
                },
                eight);
        print("READY");
        Thread.currentThread().join();
    }

    private static void print(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
