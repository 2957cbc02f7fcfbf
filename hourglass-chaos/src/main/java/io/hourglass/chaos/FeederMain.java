package io.hourglass.chaos;

import io.hourglass.ColdTier;
import io.hourglass.Hourglass;
import io.hourglass.JobAlreadyExistsException;
import io.hourglass.JobRequest;
import io.hourglass.ScheduleResult;
import io.hourglass.tier.jdbc.JdbcColdTier;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A feeder process of the cold-tier scenario: an instance with the PostgreSQL cold tier whose only work is the tier's
 * feeder (it consumes nothing). Every 200 ms it records {@code M name moved resent lagMs}: the jobs its feeder took out
 * of the cold tier so far, how many of those Redis already had (a move whose delete another feeder's crash or a
 * PostgreSQL crash undid, or a reschedule that moved the job first), and the feeder's lag. Runs until the checker kills
 * it or closes its standard input.
 */
@Command(name = "feeder", mixinStandardHelpOptions = true)
public final class FeederMain implements Callable<Integer> {
    /** Printed on standard output once the feeder runs. */
    static final String READY = "feeder ready";

    @Mixin
    ClientSettings client;

    @Option(names = "--jdbc-url", required = true)
    String jdbcUrl;

    @Option(names = "--jdbc-user", defaultValue = "postgres")
    String jdbcUser;

    @Option(names = "--horizon-ms", required = true)
    long horizonMs;

    @Option(names = "--lead-time-ms", required = true)
    long leadTimeMs;

    @Option(names = "--name", required = true, description = "e.g. feeder-0-g1")
    String name;

    @Option(names = "--out", required = true)
    Path out;

    /** @param args see the options */
    public static void main(String[] args) {
        ParentWatch.haltWhenParentExits();
        int code = new CommandLine(new FeederMain()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws Exception {
        RecordLog log = new RecordLog(out);
        JdbcColdTier tier = JdbcColdTier.builder()
                .namespace(client.namespace)
                .jdbc(jdbcUrl, jdbcUser, null)
                .migrate(false) // the checker made the table
                // small batches and a short poll: many moves, and so many moments to be killed in the middle of one
                .batchSize(20)
                .pollInterval(Duration.ofMillis(100))
                .leadTime(Duration.ofMillis(leadTimeMs))
                .build();
        CountingTier counting = new CountingTier(tier);
        Hourglass hourglass = client.connect(counting, Duration.ofMillis(horizonMs));
        System.out.println(READY);
        System.out.flush();
        while (!Thread.currentThread().isInterrupted()) {
            log.append(
                    "M",
                    name,
                    tier.movedJobs(),
                    counting.resent.get(),
                    tier.lag().toMillis());
            Thread.sleep(200);
        }
        hourglass.close();
        return 0;
    }

    /**
     * The tier as the instance sees it, but counting the moves Redis refused because it has the job already: the
     * evidence that moves were cut between Redis's accept and PostgreSQL's commit.
     */
    static final class CountingTier implements ColdTier {
        private final ColdTier tier;
        final AtomicLong resent = new AtomicLong();

        CountingTier(ColdTier tier) {
            this.tier = tier;
        }

        @Override
        public String namespace() {
            return tier.namespace();
        }

        @Override
        public void start(Duration horizon, Mover mover) {
            tier.start(horizon, job -> mover.schedule(job).whenComplete((result, failure) -> {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause()
                        : failure;
                if (cause instanceof JobAlreadyExistsException) {
                    resent.incrementAndGet();
                }
            }));
        }

        @Override
        public void stop() {
            tier.stop();
        }

        @Override
        public ScheduleResult store(JobRequest job) {
            return tier.store(job);
        }

        @Override
        public Optional<JobRequest> find(String topic, String id) {
            return tier.find(topic, id);
        }

        @Override
        public boolean delete(String topic, String id) {
            return tier.delete(topic, id);
        }

        @Override
        public boolean reschedule(String topic, String id, Instant dueAt) {
            return tier.reschedule(topic, id, dueAt);
        }

        @Override
        public <T> Optional<T> moveOut(String topic, String id, Function<JobRequest, T> into) {
            return tier.moveOut(topic, id, into);
        }
    }
}
