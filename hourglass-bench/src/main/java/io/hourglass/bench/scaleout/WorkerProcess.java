package io.hourglass.bench.scaleout;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.bench.systems.LatenessRecorder;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A worker in a process of its own that speaks {@link ScaleOutWorker}'s protocol: a {@link ScaleOutWorker} JVM started
 * with this JVM's {@code java} and class path and the JVM's defaults (no warm-up, no tuning: a fresh worker as a user
 * starts one), or any other program that speaks it ({@code bullmq/bench.mjs worker}). {@link #close()} kills it if it
 * still runs.
 */
public final class WorkerProcess implements AutoCloseable {
    private final Process process;
    private final long startedNanos = System.nanoTime();
    private volatile long readyNanos;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final LinkedBlockingQueue<Object> reports = new LinkedBlockingQueue<>();
    private final List<String> lastLines = new ArrayList<>();

    /**
     * What one worker process did between two reports (or {@link #start} and the first).
     *
     * @param delivered deliveries its handlers started
     * @param early deliveries before their due time
     * @param lastHandledMicros when its last handler started, µs since the epoch (0 if none)
     * @param cpuNanos the process's CPU time, ns
     * @param jitMillis its JIT compilers' time, ms; -1 where the process cannot tell (Node.js)
     * @param latenessMicros each delivery's lateness, µs
     * @param threadCpuNanos each of its Java threads' CPU time, ns, by thread name; empty where the process cannot tell
     *     (Node.js)
     */
    public record Report(
            long delivered,
            long early,
            long lastHandledMicros,
            long cpuNanos,
            long jitMillis,
            Histogram latenessMicros,
            Map<String, Long> threadCpuNanos) {

        /** @return the thread that used the most CPU and its time (ns); null when none was reported */
        public Map.Entry<String, Long> busiestThread() {
            return threadCpuNanos.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElse(null);
        }

        /**
         * @return the threads' CPU time (ns) summed by kind, a thread's name without its numbering (all
         *     {@code lettuce-nioEventLoop-4-n} are {@code lettuce-nioEventLoop})
         */
        public Map<String, Long> cpuNanosByThreadKind() {
            Map<String, Long> byKind = new HashMap<>();
            threadCpuNanos.forEach((name, nanos) -> byKind.merge(ThreadCpu.kind(name), nanos, Long::sum));
            return byKind;
        }
    }

    private WorkerProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "worker-process-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * @param seedUris the cluster's nodes
     * @param shards shards of the topic
     * @param concurrency handler slots of the worker
     * @param namespace the namespace
     * @param topic the topic it subscribes to
     * @param jvmOptions options for its {@code java} command, e.g. {@code -XX:TieredStopAtLevel=1}; empty for none
     * @return the started process; call {@link #awaitReady} before relying on it
     */
    public static WorkerProcess start(
            List<String> seedUris,
            int shards,
            int concurrency,
            String namespace,
            String topic,
            List<String> jvmOptions) {
        return startJava(
                jvmOptions,
                List.of(
                        String.join(",", seedUris),
                        Integer.toString(shards),
                        Integer.toString(concurrency),
                        namespace,
                        topic));
    }

    /**
     * A {@link ScaleOutWorker} JVM on one Redis server.
     *
     * @param redisUri the server
     * @param shards shards of the topic
     * @param concurrency handler slots of the worker
     * @param namespace the namespace
     * @param topic the topic it subscribes to
     * @param jvmOptions options for its {@code java} command, e.g. {@code -XX:TieredStopAtLevel=1}; empty for none
     * @return the started process; call {@link #awaitReady} before relying on it
     */
    public static WorkerProcess startStandalone(
            String redisUri, int shards, int concurrency, String namespace, String topic, List<String> jvmOptions) {
        return startJava(
                jvmOptions,
                List.of(
                        redisUri,
                        Integer.toString(shards),
                        Integer.toString(concurrency),
                        namespace,
                        topic,
                        ScaleOutWorker.STANDALONE));
    }

    private static WorkerProcess startJava(List<String> jvmOptions, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ScaleOutWorker.class.getName()));
        command.addAll(arguments);
        return start(command, null);
    }

    /**
     * @param command a program that speaks {@link ScaleOutWorker}'s protocol, with its arguments
     * @param directory its working folder; null for this process's
     * @return the started process; call {@link #awaitReady} before relying on it
     */
    public static WorkerProcess start(List<String> command, File directory) {
        try {
            return new WorkerProcess(new ProcessBuilder(command)
                    .directory(directory)
                    .redirectErrorStream(true)
                    .start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a worker process: " + command.get(0), e);
        }
    }

    private void read() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.equals(ScaleOutWorker.READY)) {
                    readyNanos = System.nanoTime();
                    ready.complete(null);
                } else if (ResultLine.is(line)) {
                    reports.add(parse(line));
                } else {
                    remember(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            reports.add(e);
        }
        IllegalStateException ended =
                new IllegalStateException("worker process ended; its last output: " + lastLines());
        ready.completeExceptionally(ended);
        reports.add(ended);
    }

    /**
     * @param line a {@link ResultLine} of a worker process
     * @return its report
     * @throws IllegalArgumentException naming what is missing when the line is not a worker's report
     */
    static Report parse(String line) {
        JsonNode report = ResultLine.parse(line);
        JsonNode values = report.get("latenessMicros");
        JsonNode encoded = report.get("lateness");
        if (values == null && encoded == null) {
            throw new IllegalArgumentException("a report without lateness or latenessMicros: " + line);
        }
        Map<String, Long> threadCpuNanos = new LinkedHashMap<>();
        report.path("threadCpuNanos")
                .fields()
                .forEachRemaining(
                        e -> threadCpuNanos.put(e.getKey(), e.getValue().asLong()));
        return new Report(
                ResultLine.number(report, "delivered"),
                ResultLine.number(report, "early"),
                ResultLine.number(report, "lastHandledMicros"),
                ResultLine.number(report, "cpuNanos"),
                ResultLine.number(report, "jitMillis"),
                values != null ? histogram(values) : ResultLine.decode(ResultLine.text(report, "lateness")),
                threadCpuNanos);
    }

    /** A JSON array of lateness values in µs, as a program without HdrHistogram prints them. */
    private static Histogram histogram(JsonNode values) {
        Histogram h = new Histogram(LatenessRecorder.HIGHEST_MICROS, 3);
        values.forEach(v -> h.recordValue(Math.min(LatenessRecorder.HIGHEST_MICROS, Math.max(0, v.asLong()))));
        return h;
    }

    private synchronized void remember(String line) {
        lastLines.add(line);
        if (lastLines.size() > 20) {
            lastLines.remove(0);
        }
    }

    private synchronized String lastLines() {
        return String.join(" | ", lastLines);
    }

    /**
     * @param timeout longest wait
     * @throws Exception when the worker ended or did not subscribe in time
     */
    public void awaitReady(Duration timeout) throws Exception {
        ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** @return ms from starting the process to its {@code READY} (subscribed); call after {@link #awaitReady} */
    public double startMillis() {
        return (readyNanos - startedNanos) / 1e6;
    }

    /**
     * Waits until the worker delivered {@code jobs} jobs since its last report, or its own timeout passed, and takes
     * its report; it goes on counting anew.
     *
     * @param jobs deliveries to wait for
     * @param timeout longest wait for its report
     * @return what it did since its last report
     * @throws Exception when it ended without reporting or did not report in time
     */
    public Report await(long jobs, Duration timeout) throws Exception {
        send(ScaleOutWorker.AWAIT + " " + jobs);
        return nextReport(timeout);
    }

    /**
     * Asks the worker to stop and report.
     *
     * @param timeout longest wait for its report
     * @return what it did since its last report
     * @throws Exception when it ended without reporting or did not report in time
     */
    public Report stop(Duration timeout) throws Exception {
        send(ScaleOutWorker.STOP);
        Report result = nextReport(timeout);
        process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return result;
    }

    private void send(String line) throws IOException {
        process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    private Report nextReport(Duration timeout) throws Exception {
        Object next = reports.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (next == null) {
            throw new IllegalStateException("no report from the worker process within " + timeout);
        }
        if (next instanceof Exception e) {
            reports.add(e);
            throw e;
        }
        return (Report) next;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
