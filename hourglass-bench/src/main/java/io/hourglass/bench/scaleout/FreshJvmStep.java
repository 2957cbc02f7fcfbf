package io.hourglass.bench.scaleout;

import com.fasterxml.jackson.databind.JsonNode;
import io.hourglass.bench.SystemName;
import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.systems.DrainResult;
import io.hourglass.bench.systems.HourglassSystem;
import io.hourglass.bench.systems.QueueSystem;
import io.hourglass.bench.systems.RedissonSystem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One end-to-end step (a burst or a sustained run) of a JVM-side system in a JVM of its own, started for that step
 * alone with no warm-up, as a freshly deployed service meets its first burst: {@link #run} starts it, {@link #main} is
 * the child. The child runs the system as the bench does (its defaults: platform threads, the default idempotency
 * window) against the parent's Redis, and prints one {@link ResultLine} with the step's drain ({@code jobs},
 * {@code delivered}, {@code early}, {@code seconds}, the histogram {@code lateness} and the {@code note}) and its whole
 * process's {@code cpuNanos} and {@code jitMillis} over the step (producer and worker together, as they share the JVM).
 */
public final class FreshJvmStep {
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    /** What the child reported: the step's drain, and its process's CPU and JIT time over the step. */
    public record Outcome(DrainResult drain, long cpuNanos, long jitMillis) {}

    private FreshJvmStep() {}

    /**
     * @param system Hourglass or Redisson
     * @param burst a burst (true) or a sustained run (false)
     * @param redis the round's server
     * @param jobs jobs of the step
     * @param consumers concurrent handlers
     * @param leadOrDelay the burst's lead or the sustained run's delay
     * @param jvmOptions options for the child's {@code java} command; empty for none
     * @return what the child reported
     * @throws Exception when the child fails, reports nothing or runs past its time
     */
    public static Outcome run(
            SystemName system,
            boolean burst,
            FreshRedis redis,
            int jobs,
            int consumers,
            Duration leadOrDelay,
            List<String> jvmOptions)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                FreshJvmStep.class.getName(),
                system.name(),
                burst ? "burst" : "sustained",
                Integer.toString(redis.port()),
                Integer.toString(jobs),
                Integer.toString(consumers),
                Long.toString(leadOrDelay.toMillis())));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                try {
                    process.getInputStream().transferTo(all);
                } catch (IOException e) {
                    // the process ended; what was read is reported
                }
                return all.toString(StandardCharsets.UTF_8);
            });
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the fresh JVM ran past " + TIMEOUT);
            }
            String out = output.get(10, TimeUnit.SECONDS);
            for (String line : out.split("\n")) {
                if (ResultLine.is(line)) {
                    return parse(line);
                }
            }
            throw new IllegalStateException("the fresh JVM exited " + process.exitValue() + " without a result: "
                    + (out.length() > 2000 ? "…" + out.substring(out.length() - 2000) : out));
        } finally {
            process.destroyForcibly();
        }
    }

    private static Outcome parse(String line) {
        JsonNode report = ResultLine.parse(line);
        DrainResult drain = new DrainResult(
                (int) ResultLine.number(report, "jobs"),
                ResultLine.number(report, "delivered"),
                ResultLine.number(report, "early"),
                ResultLine.real(report, "seconds"),
                ResultLine.decode(ResultLine.text(report, "lateness")),
                ResultLine.text(report, "note"));
        return new Outcome(drain, ResultLine.number(report, "cpuNanos"), ResultLine.number(report, "jitMillis"));
    }

    /**
     * @param args system (HOURGLASS or REDISSON), step (burst or sustained), Redis port, jobs, consumers, and the
     *     burst's lead or the sustained run's delay in ms
     * @throws Exception when the step fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: FreshJvmStep SYSTEM burst|sustained PORT JOBS CONSUMERS LEAD_OR_DELAY_MS");
            System.exit(2);
        }
        QueueSystem system = SystemName.valueOf(args[0]) == SystemName.REDISSON
                ? new RedissonSystem(false)
                : new HourglassSystem(false, null);
        int jobs = Integer.parseInt(args[3]);
        int consumers = Integer.parseInt(args[4]);
        Duration leadOrDelay = Duration.ofMillis(Long.parseLong(args[5]));
        try (FreshRedis redis = FreshRedis.attach(Integer.parseInt(args[2]))) {
            long cpu = ScaleOutWorker.processCpuNanos();
            long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
            DrainResult drain = args[1].equals("burst")
                    ? system.burst(redis, jobs, consumers, leadOrDelay)
                    : system.sustained(redis, jobs, leadOrDelay, consumers);
            cpu = ScaleOutWorker.processCpuNanos() - cpu;
            jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit;
            System.out.println(ResultLine.of(ResultLine.report()
                    .put("jobs", drain.jobs())
                    .put("delivered", drain.delivered())
                    .put("early", drain.early())
                    .put("seconds", drain.seconds())
                    .put("lateness", ResultLine.encode(drain.latenessMicros()))
                    .put("note", drain.note())
                    .put("cpuNanos", cpu)
                    .put("jitMillis", jit)));
            System.out.flush();
        }
        System.exit(0);
    }
}
