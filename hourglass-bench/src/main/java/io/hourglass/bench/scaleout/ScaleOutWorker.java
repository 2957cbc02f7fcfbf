package io.hourglass.bench.scaleout;

import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import io.hourglass.WorkerOptions;
import io.hourglass.bench.systems.LatenessRecorder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A worker process of the scale-out and client-CPU workloads: one JVM with one {@code subscribe} of the given
 * concurrency on the benchmark's topic, as a user would run a worker fleet. It prints {@value #READY} once subscribed
 * and records each delivery's lateness. A line {@code AWAIT n} waits until n jobs were delivered since the last report
 * (at most {@link #AWAIT_TIMEOUT_MS} ms), then reports and starts counting anew; a line {@value #STOP} (or the end of
 * its standard input) reports and exits. A report is one line {@code RESULT delivered early lastHandledMicros cpuNanos
 * jitMillis histogram threads}, counted since the previous report or {@value #READY}: the CPU time is the process's own
 * (JIT, GC and every thread included), the JIT time the compilers' ({@link CompilationMXBean}), the histogram
 * HdrHistogram's compressed encoding in Base64, and {@code threads} each Java thread's CPU time in ns
 * ({@code name:nanos,...}, see {@link ThreadCpu}), which a program that cannot tell leaves out.
 */
public final class ScaleOutWorker {
    static final String READY = "READY";
    static final String STOP = "STOP";
    static final String AWAIT = "AWAIT";
    static final String RESULT = "RESULT";
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
        System.out.println(String.join(
                " ",
                RESULT,
                Long.toString(drain.delivered()),
                Long.toString(drain.early()),
                Long.toString(done.lastHandledMicros()),
                Long.toString(now.cpuNanos() - since.cpuNanos()),
                Long.toString(now.jitMillis() - since.jitMillis()),
                encode(drain.latenessMicros()),
                ThreadCpu.encode(now.threads().since(since.threads()))));
        System.out.flush();
        return now;
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.flip();
        buffer.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (java.util.zip.DataFormatException e) {
            throw new IllegalArgumentException("not an encoded histogram", e);
        }
    }
}
