package io.hourglass.bench.workloads;

import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.Sizes;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.CommandStats;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.scaleout.WorkerProcess;
import io.hourglass.bench.systems.DrainResult;
import io.hourglass.bench.systems.LatenessRecorder;
import io.hourglass.bench.systems.SeparateWorker;
import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * 12. Client CPU: the CPU time a worker process spends per delivered job, as a user's worker meets it. The worker runs
 * alone in a fresh process (a JVM with its defaults for Hourglass, Node.js for BullMQ) with 16 handler slots, and the
 * producer in another (this JVM for Hourglass, a second Node.js process for BullMQ), so that the producer's CPU is not
 * counted. Two scenarios: the end-to-end workload's sustained run (jobs with a 1 s delay scheduled as fast as possible)
 * and jobs paced at {@link #PACED_RATE}/s, each scheduled 1 s ahead, for the fixed-rate workload's duration. Each runs
 * twice in the same worker process: the first pass is what a freshly started worker costs (its JIT compilation
 * included), the second what it costs once warm; after the paced passes the worker idles for {@link #IDLE} and its CPU
 * then is reported per second. The CPU time is the process's own from subscribed on (every thread: JIT, GC, event
 * loop), the JIT's share (Hourglass only) from {@code CompilationMXBean}. Redisson is not run: its consumers and
 * producer share one client, and its queue's transfer runs in that client.
 */
public final class ClientCpuWorkload implements Workload {
    /** The paced rate, jobs due per second. */
    public static final int PACED_RATE = 2_000;

    private static final Duration IDLE = Duration.ofSeconds(2);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(1);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(6);

    @Override
    public String key() {
        return "cpu";
    }

    @Override
    public String title() {
        return "12. Client CPU";
    }

    @Override
    public void run(BenchContext context) {
        Sizes sizes = context.sizes();
        context.forEachSystem(
                title(),
                "sustained: " + sizes.sustainedJobs() + " jobs, "
                        + sizes.sustainedDelay().toMillis() + " ms delay; worker in a process of its own",
                (system, redis, scope) -> {
                    if (system instanceof SeparateWorker separate) {
                        measure(context, separate, redis, scope, false, () -> {
                            separate.produceSustained(redis, sizes.sustainedJobs(), sizes.sustainedDelay());
                            return sizes.sustainedJobs();
                        });
                    } else {
                        notRun(scope);
                    }
                });
        context.forEachSystem(
                title(),
                "paced: " + PACED_RATE + " jobs/s for " + sizes.rateDuration().toSeconds()
                        + " s; worker in a process of its own",
                (system, redis, scope) -> {
                    if (system instanceof SeparateWorker separate) {
                        measure(
                                context,
                                separate,
                                redis,
                                scope,
                                true,
                                () -> separate.producePaced(
                                        redis, PACED_RATE, sizes.rateDuration(), sizes.fixedRateLead()));
                    } else {
                        notRun(scope);
                    }
                });
    }

    /** Produces the jobs of one pass; returns how many. */
    @FunctionalInterface
    private interface Pass {
        int produce() throws Exception;
    }

    private static void measure(
            BenchContext context,
            SeparateWorker system,
            FreshRedis redis,
            ScenarioScope scope,
            boolean idleAfter,
            Pass pass)
            throws Exception {
        try (WorkerProcess worker =
                system.startWorker(redis, context.sizes().consumers(), context.workerJvmOptions())) {
            worker.awaitReady(START_TIMEOUT);
            CommandStats before = redis.commandStats();
            int firstJobs = pass.produce();
            WorkerProcess.Report first = worker.await(firstJobs, DRAIN_TIMEOUT);
            int secondJobs = pass.produce();
            WorkerProcess.Report second = worker.await(secondJobs, DRAIN_TIMEOUT);
            scope.add(
                    "script calls per job",
                    "calls",
                    Direction.LOWER_IS_BETTER,
                    (double) redis.commandStats().since(before).scriptCalls() / (firstJobs + secondJobs),
                    "EVALSHA, EVAL and FCALL over both passes, the producer's included");
            WorkerProcess.Report idle = null;
            if (idleAfter) {
                Thread.sleep(IDLE.toMillis());
                idle = worker.await(0, DRAIN_TIMEOUT);
            }
            worker.stop(START_TIMEOUT);
            record(scope, firstJobs + secondJobs, first, second, idle);
            scope.add(
                    "worker start to subscribed",
                    "ms",
                    Direction.INFO,
                    worker.startMillis(),
                    "from starting the process to its worker subscribed (not in its CPU per job)");
        }
    }

    private static void record(
            ScenarioScope scope,
            int jobs,
            WorkerProcess.Report first,
            WorkerProcess.Report second,
            WorkerProcess.Report idle) {
        Histogram lateness = new Histogram(LatenessRecorder.HIGHEST_MICROS, 3);
        lateness.add(first.latenessMicros());
        lateness.add(second.latenessMicros());
        scope.addDrain(
                new DrainResult(
                        jobs,
                        first.delivered() + second.delivered(),
                        first.early() + second.early(),
                        Double.NaN,
                        lateness,
                        ""),
                false);
        scope.add(
                "client CPU per job, fresh process",
                "µs",
                Direction.LOWER_IS_BETTER,
                perJob(first),
                "the worker process's CPU over its first pass, from subscribed on; JIT and GC included");
        scope.add(
                "client CPU per job, second pass",
                "µs",
                Direction.LOWER_IS_BETTER,
                perJob(second),
                "the same worker process running the pass again");
        if (first.jitMillis() >= 0) {
            scope.add(
                    "JIT time, fresh process",
                    "ms",
                    Direction.INFO,
                    first.jitMillis(),
                    "CompilationMXBean over the first pass; the compilers' threads are part of the CPU above");
        }
        if (idle != null) {
            scope.add(
                    "idle worker CPU",
                    "ms/s",
                    Direction.LOWER_IS_BETTER,
                    idle.cpuNanos() / 1e6 / (IDLE.toMillis() / 1000.0),
                    "the warm worker with nothing due, for " + IDLE.toSeconds() + " s after the second pass");
        }
    }

    private static double perJob(WorkerProcess.Report report) {
        return report.delivered() > 0 ? report.cpuNanos() / 1000.0 / report.delivered() : Double.NaN;
    }

    private static void notRun(ScenarioScope scope) {
        scope.add(
                "client CPU per job, fresh process",
                "µs",
                Direction.INFO,
                Double.NaN,
                "not run: its consumers and producer share one client");
    }
}
