package io.hourglass.bench.scaleout;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.WorkerOptions;
import io.hourglass.bench.systems.DrainResult;
import io.hourglass.bench.systems.LatenessRecorder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A worker process of the scale-out and client-CPU workloads: one JVM with one {@code subscribe} of the given
 * concurrency on the benchmark's topic, as a user would run a worker fleet. It prints {@value #READY} once subscribed
 * and records each delivery's lateness. A line {@code AWAIT n} waits until n jobs were delivered since the last report
 * (at most {@link #AWAIT_TIMEOUT_MS} ms), then reports and starts counting anew; a line {@value #STOP} (or the end of
 * its standard input) reports and exits. A report is one {@link ResultLine}, counted since the previous report or
 * {@value #READY}, with the numbers {@code delivered}, {@code early}, {@code lastHandledMicros}, {@code cpuNanos} and
 * {@code jitMillis}, the histogram {@code lateness} and the object {@code threadCpuNanos}: the CPU time is the
 * process's own (JIT, GC and every thread included), the JIT time the compilers' ({@link CompilationMXBean}), and
 * {@code threadCpuNanos} each Java thread's CPU time in ns by name ({@link ThreadCpu}). A program that has no
 * HdrHistogram gives {@code latenessMicros}, an array of each delivery's lateness in µs, instead of {@code lateness},
 * and one that cannot tell its threads' or compilers' times leaves {@code threadCpuNanos} out and gives
 * {@code jitMillis} -1.
 */
public final class ScaleOutWorker {
    static final String READY = "READY";
    static final String STOP = "STOP";
    static final String AWAIT = "AWAIT";
    /** The last argument that connects to a single Redis server (the first seed URI) instead of a cluster. */
    static final String STANDALONE = "standalone";
    /** Longest wait of an {@code AWAIT} line. */
    static final long AWAIT_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(5);

    private static volatile LatenessRecorder recorder = new LatenessRecorder(Integer.MAX_VALUE);

    private ScaleOutWorker() {}

    /**
     * @param args the seed URIs (comma-separated), shards of the topic, handler concurrency, namespace and topic, and
     *     optionally {@value #STANDALONE}
     * @throws Exception when Redis cannot be reached or the output cannot be written
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 5 && !(args.length == 6 && args[5].equals(STANDALONE))) {
            System.err.println("usage: ScaleOutWorker SEED_URIS SHARDS CONCURRENCY NAMESPACE TOPIC [standalone]");
            System.exit(2);
        }
        String[] seeds = args[0].split(",");
        HourglassBuilder builder = args.length == 6
                ? Hourglass.builder().redisUri(seeds[0])
                : Hourglass.builder().clusterNodes(seeds);
        int concurrency = Integer.parseInt(args[2]);
        try (Hourglass hourglass =
                builder.shards(Integer.parseInt(args[1])).namespace(args[3]).build()) {
            hourglass.subscribe(
                    args[4],
                    job -> recorder.record(job.dueAt().toEpochMilli()),
                    WorkerOptions.builder().concurrency(concurrency).build());
            Mark since = Mark.now();
            System.out.println(READY);
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.trim().equals(STOP); line = in.readLine()) {
                if (line.startsWith(AWAIT + " ")) {
                    awaitDelivered(
                            Long.parseLong(line.substring(AWAIT.length() + 1).trim()));
                    since = report(since);
                }
            }
            report(since);
        }
    }

    /** Waits, checking every 50 ms (a few wake-ups against the thousands its handlers make), for n deliveries. */
    private static void awaitDelivered(long n) throws InterruptedException {
        long deadline = System.currentTimeMillis() + AWAIT_TIMEOUT_MS;
        while (recorder.delivered() < n && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
    }

    /** The process's CPU time (ns), its compilers' time (ms) and its Java threads' CPU times at one moment. */
    private record Mark(long cpuNanos, long jitMillis, ThreadCpu threads) {
        static Mark now() {
            return new Mark(ScaleOutWorker.processCpuNanos(), ScaleOutWorker.jitMillis(), ThreadCpu.now());
        }
    }

    /** Prints what happened since {@code since} and starts a new count; returns the new start. */
    private static Mark report(Mark since) {
        LatenessRecorder done = recorder;
        recorder = new LatenessRecorder(Integer.MAX_VALUE);
        Mark now = Mark.now();
        var drain = done.result(0, "");
        System.out.println(reportLine(
                drain,
                done.lastHandledMicros(),
                now.cpuNanos() - since.cpuNanos(),
                now.jitMillis() - since.jitMillis(),
                now.threads().since(since.threads())));
        System.out.flush();
        return now;
    }

    /** @return the report line of a drain, read back by {@link WorkerProcess} (see this class's description) */
    static String reportLine(
            DrainResult drain,
            long lastHandledMicros,
            long cpuNanos,
            long jitMillis,
            Map<String, Long> threadCpuNanos) {
        ObjectNode report = ResultLine.report()
                .put("delivered", drain.delivered())
                .put("early", drain.early())
                .put("lastHandledMicros", lastHandledMicros)
                .put("cpuNanos", cpuNanos)
                .put("jitMillis", jitMillis)
                .put("lateness", ResultLine.encode(drain.latenessMicros()));
        threadCpuNanos.forEach(report.putObject("threadCpuNanos")::put);
        return ResultLine.of(report);
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }
}
