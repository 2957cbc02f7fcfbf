package io.hourglass.bench.scaleout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A {@link ScaleOutWorker} in a JVM of its own, started with this JVM's {@code java} and class path and the JVM's
 * defaults (no warm-up, no tuning: a fresh worker as a user starts one). {@link #close()} kills it if it still runs.
 */
public final class WorkerProcess implements AutoCloseable {
    private final Process process;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final CompletableFuture<Report> report = new CompletableFuture<>();
    private final List<String> lastLines = new ArrayList<>();

    /**
     * What one worker process did between {@link #start} and {@link #stop}.
     *
     * @param delivered deliveries its handlers started
     * @param early deliveries before their due time
     * @param lastHandledMicros when its last handler started, µs since the epoch (0 if none)
     * @param cpuNanos the process's CPU time from ready to stop, ns
     * @param latenessMicros each delivery's lateness, µs
     */
    public record Report(long delivered, long early, long lastHandledMicros, long cpuNanos, Histogram latenessMicros) {}

    private WorkerProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "scale-out-worker-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * @param seedUris the cluster's nodes
     * @param shards shards of the topic
     * @param concurrency handler slots of the worker
     * @param namespace the namespace
     * @param topic the topic it subscribes to
     * @return the started process; call {@link #awaitReady} before relying on it
     */
    public static WorkerProcess start(
            List<String> seedUris, int shards, int concurrency, String namespace, String topic) {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ScaleOutWorker.class.getName(),
                String.join(",", seedUris),
                Integer.toString(shards),
                Integer.toString(concurrency),
                namespace,
                topic);
        try {
            return new WorkerProcess(
                    new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a worker JVM", e);
        }
    }

    private void read() {
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.equals(ScaleOutWorker.READY)) {
                    ready.complete(null);
                } else if (line.startsWith(ScaleOutWorker.RESULT + " ")) {
                    String[] f = line.split(" ");
                    report.complete(new Report(
                            Long.parseLong(f[1]),
                            Long.parseLong(f[2]),
                            Long.parseLong(f[3]),
                            Long.parseLong(f[4]),
                            ScaleOutWorker.decode(f[5])));
                } else {
                    remember(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            report.completeExceptionally(e);
        }
        IllegalStateException ended = new IllegalStateException("worker JVM ended; its last output: " + lastLines());
        ready.completeExceptionally(ended);
        report.completeExceptionally(ended);
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

    /**
     * Asks the worker to stop and report.
     *
     * @param timeout longest wait for its report
     * @return what it did
     * @throws Exception when it ended without reporting or did not report in time
     */
    public Report stop(Duration timeout) throws Exception {
        process.getOutputStream().write((ScaleOutWorker.STOP + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
        Report result = report.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return result;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
