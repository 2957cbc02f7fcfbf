package io.hourglass.bench.scaleout;

import io.hourglass.Hourglass;
import io.hourglass.WorkerOptions;
import io.hourglass.bench.systems.LatenessRecorder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.HdrHistogram.Histogram;

/**
 * The worker process of the scale-out workload: one JVM with one {@code subscribe} of the given concurrency on the
 * benchmark's topic, as a user would run a worker fleet. It prints {@value #READY} once subscribed, records each
 * delivery's lateness, and on a line {@value #STOP} (or the end of its standard input) prints one line {@code RESULT
 * delivered early lastHandledMicros cpuNanos histogram} and exits. The CPU time is the process's own from
 * {@value #READY} on (JIT, GC and every thread included), the histogram HdrHistogram's compressed encoding in Base64.
 */
public final class ScaleOutWorker {
    static final String READY = "READY";
    static final String STOP = "STOP";
    static final String RESULT = "RESULT";

    private ScaleOutWorker() {}

    /**
     * @param args the cluster's seed URIs (comma-separated), shards of the topic, handler concurrency, namespace and
     *     topic
     * @throws Exception when Redis cannot be reached or the output cannot be written
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: ScaleOutWorker SEED_URIS SHARDS CONCURRENCY NAMESPACE TOPIC");
            System.exit(2);
        }
        String[] seeds = args[0].split(",");
        int shards = Integer.parseInt(args[1]);
        int concurrency = Integer.parseInt(args[2]);
        LatenessRecorder recorder = new LatenessRecorder(Integer.MAX_VALUE);
        try (Hourglass hourglass = Hourglass.builder()
                .clusterNodes(seeds)
                .shards(shards)
                .namespace(args[3])
                .build()) {
            hourglass.subscribe(
                    args[4],
                    job -> recorder.record(job.dueAt().toEpochMilli()),
                    WorkerOptions.builder().concurrency(concurrency).build());
            long cpuAtStart = processCpuNanos();
            System.out.println(READY);
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.trim().equals(STOP); line = in.readLine()) {
                // anything but STOP is ignored
            }
            long cpu = processCpuNanos() - cpuAtStart;
            var drain = recorder.result(0, "");
            System.out.println(String.join(
                    " ",
                    RESULT,
                    Long.toString(drain.delivered()),
                    Long.toString(drain.early()),
                    Long.toString(recorder.lastHandledMicros()),
                    Long.toString(cpu),
                    encode(drain.latenessMicros())));
            System.out.flush();
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
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
