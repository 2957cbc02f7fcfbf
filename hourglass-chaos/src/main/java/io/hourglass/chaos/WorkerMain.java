package io.hourglass.chaos;

import io.hourglass.Delivery;
import io.hourglass.Hourglass;
import io.hourglass.HourglassException;
import io.hourglass.Job;
import io.hourglass.WorkerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A worker process of the checker: consumes every topic and records each delivery, at the start of its handler, as
 * {@code D topic id attempt wallMs receipt pid}, written to the operating system before the handler returns (and so
 * before the ack). Runs until the checker kills it or closes its standard input.
 *
 * <p>Mode {@code subscribe} uses in-process handlers ({@link Hourglass#subscribe}); their {@link Job} does not expose
 * the receipt, so the lease deadline stands for it ({@code lease@<ms>}, unique per delivery in practice). Mode
 * {@code pull} uses {@link Hourglass#reserveAsync} and {@link Hourglass#ack}, and records the receipt itself and the
 * lease deadline ({@code <receipt>/lease@<ms>}), for each delivery of a reservation as soon as it returns (their
 * handlers then run one after another).
 */
@Command(name = "worker", mixinStandardHelpOptions = true)
public final class WorkerMain implements Callable<Integer> {
    @Mixin
    ClientSettings client;

    @Option(names = "--topics", defaultValue = "4")
    int topics;

    @Option(names = "--concurrency", defaultValue = "8")
    int concurrency;

    @Option(names = "--mode", defaultValue = "subscribe", description = "subscribe or pull")
    String mode;

    @Option(names = "--handler-ms", defaultValue = "2", description = "how long each handler works")
    long handlerMs;

    @Option(names = "--out", required = true)
    Path out;

    /** Printed on standard output once every topic is consumed. */
    static final String READY = "worker ready";

    private final long pid = ProcessHandle.current().pid();

    /** @param args see the options */
    public static void main(String[] args) {
        ParentWatch.haltWhenParentExits();
        int code = new CommandLine(new WorkerMain()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        RecordLog log = new RecordLog(out);
        Hourglass hourglass = client.connect();
        for (int t = 0; t < topics; t++) {
            String topic = ClientSettings.topic(t);
            if (mode.equals("pull")) {
                Thread puller = new Thread(() -> pull(hourglass, topic, log), "pull-" + topic);
                puller.setDaemon(true);
                puller.start();
            } else {
                hourglass.subscribe(
                        topic,
                        job -> handle(job, log),
                        WorkerOptions.builder()
                                .concurrency(concurrency)
                                .shutdownGrace(Duration.ZERO)
                                .build());
            }
        }
        System.out.println(READY);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // ended by the checker
        return 0;
    }

    private void handle(Job job, RecordLog log) throws InterruptedException {
        log.append(
                "D",
                job.topic(),
                job.id(),
                job.attempt(),
                System.currentTimeMillis(),
                "lease@" + job.leaseUntil().toEpochMilli(),
                pid);
        work();
    }

    private void pull(Hourglass hourglass, String topic, RecordLog log) {
        while (true) {
            try {
                List<Delivery> deliveries = hourglass
                        .reserveAsync(topic, concurrency, null, Duration.ofSeconds(1))
                        .get(10, TimeUnit.SECONDS);
                // Recorded together, when their leases began: the last of a batch starts its work a batch of acks
                // later, which on a starved machine outlasted the lease and looked like a duplicate with no cause.
                long claimedMs = System.currentTimeMillis();
                for (Delivery d : deliveries) {
                    log.append(
                            "D",
                            d.topic(),
                            d.id(),
                            d.attempt(),
                            claimedMs,
                            d.receipt() + "/lease@" + d.leaseUntil().toEpochMilli(),
                            pid);
                }
                for (Delivery d : deliveries) {
                    work();
                    ackQuietly(hourglass, d);
                }
            } catch (InterruptedException e) {
                return;
            } catch (ExecutionException | java.util.concurrent.TimeoutException | HourglassException e) {
                pause(100); // Redis down or paused: the lease brings the job back if the ack did not get through
            }
        }
    }

    private static void ackQuietly(Hourglass hourglass, Delivery d) {
        try {
            hourglass.ack(d.topic(), d.id(), d.receipt());
        } catch (HourglassException e) {
            // stale receipt (lease expired during a pause) or Redis unavailable: the job comes back, as it must
        }
    }

    private void work() throws InterruptedException {
        if (handlerMs > 0) {
            Thread.sleep(handlerMs);
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
