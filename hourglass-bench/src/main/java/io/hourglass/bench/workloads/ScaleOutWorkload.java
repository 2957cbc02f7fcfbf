package io.hourglass.bench.workloads;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.TopicOverview;
import io.hourglass.bench.BenchContext;
import io.hourglass.bench.Direction;
import io.hourglass.bench.ReportRow;
import io.hourglass.bench.ScaleOutSizes;
import io.hourglass.bench.ScenarioScope;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.Workload;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.redis.MachineCpu;
import io.hourglass.bench.redis.ServerCpu;
import io.hourglass.bench.scaleout.WorkerProcess;
import io.hourglass.bench.systems.AsyncLoad;
import io.hourglass.bench.systems.DrainResult;
import io.hourglass.bench.systems.LatenessRecorder;
import io.hourglass.embedded.RedisClusterProcess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * 7. Scale-out: one topic of {@link ScaleOutSizes#shards()} shards on fresh Redis Clusters of each size in
 * {@link ScaleOutSizes#masters()}, drained by each number in {@link ScaleOutSizes#workers()} of worker JVMs (each a
 * fresh JVM with one {@code subscribe} of {@link ScaleOutSizes#concurrency()} slots, started before the burst, and cold
 * unless {@link ScaleOutSizes#warmUpJobs()} asks for an untimed burst first), as a user buys throughput with masters
 * and worker processes. This JVM schedules the burst (4 threads × 256 in flight, all jobs due at one instant) and
 * watches the topic drain through the inspector.
 *
 * <p>Reported per layout: schedule and burst-drain jobs/s, lateness, Redis CPU per job (all masters and the busiest),
 * the busiest master's CPU use during the drain (near 100% means Redis binds), the script calls per job while draining,
 * the whole machine's CPU use while draining (near 100% means the machine binds) and the worker JVMs' CPU per job; then
 * the ratios of each larger cluster to the first at the same number of workers, and of each larger number of workers to
 * the first on the same cluster. Every master, every worker JVM and this JVM share the machine's cores: only a machine
 * with a core per master and per worker can show the ratios Redis's side allows (the "Redis capacity ratio").
 */
public final class ScaleOutWorkload implements Workload {
    private static final String TOPIC = "scale-out";
    private static final String NAMESPACE = "bench";
    private static final byte[] PAYLOAD = "x".repeat(30).getBytes(StandardCharsets.US_ASCII);
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration WORKER_START_TIMEOUT = Duration.ofMinutes(1);
    private static final String REDIS_CPU_BUSIEST = "Redis CPU per job, busiest master";
    /** Most thread kinds reported on their own; the rest of the worker JVMs' Java threads are summed. */
    private static final int THREAD_KINDS_SHOWN = 4;

    @Override
    public String key() {
        return "scaleout";
    }

    @Override
    public String title() {
        return "7. Scale-out";
    }

    @Override
    public void run(BenchContext context) throws Exception {
        ScaleOutSizes sizes = context.sizes().scaleOut();
        for (int masters : sizes.masters()) {
            for (int workers : sizes.workers()) {
                for (int round = 1; round <= context.rounds(); round++) {
                    measure(context, sizes, masters, workers, round);
                }
            }
        }
        addRatios(context, sizes);
    }

    private void measure(BenchContext context, ScaleOutSizes sizes, int masters, int workers, int round) {
        String layout = layout(sizes, masters, workers);
        List<WorkerProcess> processes = new ArrayList<>();
        try (RedisClusterProcess cluster = RedisClusterProcess.start(masters, 0, FreshRedis::asBenchmarked);
                Hourglass producer = Hourglass.builder()
                        .clusterNodes(cluster.seedUris().toArray(String[]::new))
                        .shards(sizes.shards())
                        .namespace(NAMESPACE)
                        .build();
                ServerCpu cpu = ServerCpu.of(cluster.masterUris())) {
            for (int w = 0; w < workers; w++) {
                processes.add(WorkerProcess.start(
                        cluster.seedUris(),
                        sizes.shards(),
                        sizes.concurrency(),
                        NAMESPACE,
                        TOPIC,
                        context.workerJvmOptions()));
            }
            for (WorkerProcess process : processes) {
                process.awaitReady(WORKER_START_TIMEOUT);
            }
            if (sizes.warmUpJobs() > 0) {
                warmUp(producer, sizes.warmUpJobs(), processes);
            }
            long[] beforeSchedule = cpu.micros();
            Instant due = Instant.now().plus(sizes.lead());
            JobRequest request =
                    JobRequest.builder(TOPIC).payload(PAYLOAD).runAt(due).build();
            long start = System.nanoTime();
            AsyncLoad.run(sizes.jobs(), 4, 256, i -> producer.scheduleAsync(request));
            double scheduleSeconds = (System.nanoTime() - start) / 1e9;
            long overrunMs = System.currentTimeMillis() - due.toEpochMilli();
            Thread.sleep(Math.max(0, due.toEpochMilli() - System.currentTimeMillis()));
            long[] atDue = cpu.micros();
            long callsAtDue = cpu.scriptCalls();
            MachineCpu machineAtDue = MachineCpu.read();
            long polls = awaitDrained(producer, due);
            long[] drained = cpu.micros();
            long callsDrained = cpu.scriptCalls();
            double machineBusy = MachineCpu.read().busyPercentSince(machineAtDue);
            List<WorkerProcess.Report> reports = new ArrayList<>();
            for (WorkerProcess process : processes) {
                reports.add(process.stop(WORKER_START_TIMEOUT));
            }
            record(
                    context,
                    sizes,
                    layout,
                    round,
                    scheduleSeconds,
                    overrunMs,
                    due,
                    reports,
                    beforeSchedule,
                    atDue,
                    drained,
                    // Each poll for the end of the drain runs the overview script once on every shard.
                    callsDrained - callsAtDue - polls * sizes.shards(),
                    machineBusy);
            context.log(title() + " / " + layout + " round " + round + " done");
        } catch (Exception e) {
            context.log(title() + " / " + layout + " FAILED: " + e);
            context.scope(title(), burstScenario(sizes, layout), SystemName.HOURGLASS, round)
                    .add("failed", "", Direction.INFO, Double.NaN, "failed: " + e.getMessage());
        } finally {
            processes.forEach(WorkerProcess::close);
        }
    }

    /**
     * Has the worker JVMs drain an untimed burst due at once, as a fleet that has run for a while would have, then
     * starts their counts (deliveries, lateness, CPU) anew.
     */
    private static void warmUp(Hourglass producer, int jobs, List<WorkerProcess> processes) throws Exception {
        Instant due = Instant.now();
        JobRequest request =
                JobRequest.builder(TOPIC).payload(PAYLOAD).runAt(due).build();
        AsyncLoad.run(jobs, 4, 256, i -> producer.scheduleAsync(request));
        awaitDrained(producer, due);
        for (WorkerProcess process : processes) {
            process.await(0, WORKER_START_TIMEOUT);
        }
    }

    /**
     * Waits until no job of the burst is scheduled, ready or active: every one was acked.
     *
     * @return the topic overviews it read, each one script call per shard
     */
    private static long awaitDrained(Hourglass producer, Instant due) throws InterruptedException {
        long deadline = System.currentTimeMillis() + DRAIN_TIMEOUT.toMillis();
        for (long polls = 1; System.currentTimeMillis() < deadline; polls++) {
            TopicOverview overview = producer.inspector().topic(TOPIC);
            if (overview.scheduled() + overview.ready() + overview.active() == 0) {
                return polls;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the burst did not drain within " + DRAIN_TIMEOUT + " after " + due);
    }

    private void record(
            BenchContext context,
            ScaleOutSizes sizes,
            String layout,
            int round,
            double scheduleSeconds,
            long overrunMs,
            Instant due,
            List<WorkerProcess.Report> reports,
            long[] beforeSchedule,
            long[] atDue,
            long[] drained,
            long drainScriptCalls,
            double machineBusyPercent) {
        int jobs = sizes.jobs();
        context.scope(title(), scheduleScenario(sizes, layout), SystemName.HOURGLASS, round)
                .add("accepted", "jobs/s", Direction.HIGHER_IS_BETTER, jobs / scheduleSeconds);
        Histogram lateness = new Histogram(LatenessRecorder.HIGHEST_MICROS, 3);
        long delivered = 0;
        long early = 0;
        long lastHandled = 0;
        long workerCpuNanos = 0;
        for (WorkerProcess.Report report : reports) {
            lateness.add(report.latenessMicros());
            delivered += report.delivered();
            early += report.early();
            lastHandled = Math.max(lastHandled, report.lastHandledMicros());
            workerCpuNanos += report.cpuNanos();
        }
        long dueMicros = due.toEpochMilli() * 1000;
        String note = overrunMs > 0 ? "scheduling ended " + overrunMs + " ms after the due time" : "";
        ScenarioScope burst = context.scope(title(), burstScenario(sizes, layout), SystemName.HOURGLASS, round);
        burst.addDrain(new DrainResult(jobs, delivered, early, (lastHandled - dueMicros) / 1e6, lateness, note), true);
        long total = 0;
        long busiest = 0;
        long busiestDuringDrain = 0;
        for (int i = 0; i < drained.length; i++) {
            total += drained[i] - beforeSchedule[i];
            busiest = Math.max(busiest, drained[i] - beforeSchedule[i]);
            busiestDuringDrain = Math.max(busiestDuringDrain, drained[i] - atDue[i]);
        }
        burst.add(
                "Redis CPU per job, all masters",
                "µs",
                Direction.LOWER_IS_BETTER,
                (double) total / jobs,
                "scheduling the burst and draining it, summed over the masters");
        burst.add(REDIS_CPU_BUSIEST, "µs", Direction.LOWER_IS_BETTER, (double) busiest / jobs);
        burst.add(
                "busiest master's CPU use while draining",
                "%",
                Direction.INFO,
                100.0 * busiestDuringDrain / Math.max(1, lastHandled - dueMicros),
                "near 100: Redis binds the drain; well below: the clients or the machine do");
        burst.add(
                "script calls per job while draining",
                "calls",
                Direction.LOWER_IS_BETTER,
                (double) drainScriptCalls / jobs,
                "claims, acks and sweeps of every worker, summed over the masters (INFO commandstats), less the"
                        + " bench's own overview calls that poll for the end of the drain");
        burst.add(
                "machine's CPU use while draining",
                "%",
                Direction.INFO,
                machineBusyPercent,
                "all cores (/proc/stat), from the due time until the topic drained: near 100 means the machine binds");
        burst.add(
                "worker JVMs' CPU per job",
                "µs",
                Direction.LOWER_IS_BETTER,
                workerCpuNanos / 1000.0 / jobs,
                sizes.warmUpJobs() > 0
                        ? "every worker JVM's process CPU from the end of the warm-up to stopped, JIT and GC included"
                        : "every worker JVM's process CPU from subscribed to stopped, JIT and GC included");
        addThreadRows(burst, reports, jobs, workerCpuNanos, lastHandled - dueMicros);
    }

    /**
     * Which worker threads did the work: the busiest single thread's share of a core over the drain (near 100: that
     * thread binds its JVM, whatever the cores left), and the CPU per job of each kind of thread, summed over the
     * worker JVMs, then what their Java threads leave of the process CPU (JIT compilers, GC).
     */
    private static void addThreadRows(
            ScenarioScope burst, List<WorkerProcess.Report> reports, int jobs, long workerCpuNanos, long drainMicros) {
        String busiestName = null;
        long busiestNanos = 0;
        Map<String, Long> byKind = new LinkedHashMap<>();
        long javaThreadsNanos = 0;
        for (WorkerProcess.Report report : reports) {
            Map.Entry<String, Long> busiest = report.busiestThread();
            if (busiest != null && busiest.getValue() > busiestNanos) {
                busiestName = busiest.getKey();
                busiestNanos = busiest.getValue();
            }
            for (Map.Entry<String, Long> kind : report.cpuNanosByThreadKind().entrySet()) {
                byKind.merge(kind.getKey(), kind.getValue(), Long::sum);
                javaThreadsNanos += kind.getValue();
            }
        }
        if (busiestName == null) {
            return;
        }
        burst.add(
                "busiest worker thread's CPU use while draining",
                "%",
                Direction.INFO,
                100.0 * busiestNanos / 1000 / Math.max(1, drainMicros),
                busiestName + ", its CPU from the report's start over the drain's length: near 100, that thread binds"
                        + " its worker JVM");
        List<Map.Entry<String, Long>> kinds = byKind.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .toList();
        long shownNanos = 0;
        for (Map.Entry<String, Long> kind : kinds.subList(0, Math.min(THREAD_KINDS_SHOWN, kinds.size()))) {
            shownNanos += kind.getValue();
            burst.add(
                    "worker CPU per job in " + kind.getKey() + " threads",
                    "µs",
                    Direction.INFO,
                    kind.getValue() / 1000.0 / jobs,
                    "summed over the worker JVMs' threads of that name");
        }
        burst.add(
                "worker CPU per job in their other Java threads",
                "µs",
                Direction.INFO,
                (javaThreadsNanos - shownNanos) / 1000.0 / jobs);
        burst.add(
                "worker CPU per job outside Java threads",
                "µs",
                Direction.INFO,
                (workerCpuNanos - javaThreadsNanos) / 1000.0 / jobs,
                "the process CPU less its Java threads': JIT compilers, GC and the JVM's other own threads");
    }

    /** Each larger cluster ÷ the first at the same workers, and each larger worker count ÷ the first. */
    private void addRatios(BenchContext context, ScaleOutSizes sizes) {
        List<ReportRow> rows = context.results().rows(title());
        int baseMasters = sizes.masters().get(0);
        int baseWorkers = sizes.workers().get(0);
        for (int workers : sizes.workers()) {
            String base = layout(sizes, baseMasters, workers);
            for (int masters : sizes.masters().subList(1, sizes.masters().size())) {
                String layout = layout(sizes, masters, workers);
                ScenarioScope scope = context.scope(
                        title(),
                        masters + " masters ÷ " + baseMasters + ", " + workers
                                + (workers == 1 ? " worker JVM" : " worker JVMs"),
                        SystemName.HOURGLASS,
                        1);
                Ratios.addClusterRatios(
                        scope,
                        rows,
                        new String[] {scheduleScenario(sizes, layout), scheduleScenario(sizes, base)},
                        new String[] {burstScenario(sizes, layout), burstScenario(sizes, base)},
                        REDIS_CPU_BUSIEST,
                        new int[] {baseMasters, masters});
            }
        }
        for (int masters : sizes.masters()) {
            String base = layout(sizes, masters, baseWorkers);
            for (int workers : sizes.workers().subList(1, sizes.workers().size())) {
                context.scope(
                                title(),
                                workers + " worker JVMs ÷ " + baseWorkers + ", " + masters
                                        + (masters == 1 ? " master" : " masters"),
                                SystemName.HOURGLASS,
                                1)
                        .add(
                                "burst throughput ratio",
                                "×",
                                Direction.HIGHER_IS_BETTER,
                                Ratios.of(
                                        rows,
                                        "throughput",
                                        burstScenario(sizes, layout(sizes, masters, workers)),
                                        burstScenario(sizes, base)));
            }
        }
    }

    private static String layout(ScaleOutSizes sizes, int masters, int workers) {
        return masters + (masters == 1 ? " master × " : " masters × ") + workers
                + (workers == 1 ? " worker JVM" : " worker JVMs") + " of " + sizes.concurrency() + " slots, "
                + sizes.shards() + " shards"
                + (sizes.warmUpJobs() > 0 ? ", warmed up by a burst of " + sizes.warmUpJobs() : "");
    }

    private static String scheduleScenario(ScaleOutSizes sizes, String layout) {
        return layout + ": schedule " + sizes.jobs() + " jobs (4 threads × 256 in flight)";
    }

    private static String burstScenario(ScaleOutSizes sizes, String layout) {
        return layout + ": burst of " + sizes.jobs() + " jobs";
    }
}
