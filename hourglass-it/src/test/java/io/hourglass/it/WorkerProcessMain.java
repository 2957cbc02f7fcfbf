package io.hourglass.it;

import io.hourglass.Hourglass;
import java.time.Duration;

/**
 * A worker in a process of its own, for tests that pause or kill it: consumes one topic and prints {@code DELIVERED
 * <id> <epoch ms>} for every job it runs. Arguments: redis URI, namespace, topic, sweep ms.
 */
public final class WorkerProcessMain {
    private WorkerProcessMain() {}

    public static void main(String[] args) throws Exception {
        Hourglass hourglass = Hourglass.builder()
                .redisUri(args[0])
                .namespace(args[1])
                .sweepInterval(Duration.ofMillis(Long.parseLong(args[3])))
                .build();
        hourglass.subscribe(args[2], job -> {
            synchronized (System.out) {
                System.out.println("DELIVERED " + job.id() + " " + System.currentTimeMillis());
                System.out.flush();
            }
        });
        System.out.println("READY");
        System.out.flush();
        Thread.currentThread().join();
    }
}
