package io.hourglass.bench;

import io.hourglass.bench.report.CsvReport;
import io.hourglass.bench.report.LatenessPlot;
import io.hourglass.bench.report.MarkdownReport;
import io.hourglass.bench.systems.BullmqSystem;
import io.hourglass.bench.systems.HourglassSystem;
import io.hourglass.bench.systems.NodeRunner;
import io.hourglass.bench.systems.QueueSystem;
import io.hourglass.bench.systems.RedissonSystem;
import io.hourglass.bench.workloads.BacklogWorkload;
import io.hourglass.bench.workloads.ClientCpuWorkload;
import io.hourglass.bench.workloads.ClusterWorkload;
import io.hourglass.bench.workloads.EndToEndWorkload;
import io.hourglass.bench.workloads.FixedRateLatenessWorkload;
import io.hourglass.bench.workloads.FlowControlWorkload;
import io.hourglass.bench.workloads.HistoryWorkload;
import io.hourglass.bench.workloads.PhysicalLimitWorkload;
import io.hourglass.bench.workloads.RetentionWorkload;
import io.hourglass.bench.workloads.ScaleOutWorkload;
import io.hourglass.bench.workloads.ScheduleThroughputWorkload;
import io.hourglass.bench.workloads.TierWorkload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One benchmark run: picks the systems (BullMQ only when Node.js and its packages are usable), runs the chosen
 * workloads in order, and writes {@code results.md}, {@code results.csv}, {@code rounds.csv} and {@code lateness.png}
 * into the output folder.
 */
public final class BenchRun {

    /** Every workload, in report order. */
    public static final List<Workload> WORKLOADS = List.of(
            new ScheduleThroughputWorkload(),
            new EndToEndWorkload(),
            new FixedRateLatenessWorkload(),
            new BacklogWorkload(),
            new ClusterWorkload(),
            new PhysicalLimitWorkload(),
            new ScaleOutWorkload(),
            new RetentionWorkload(),
            new FlowControlWorkload(),
            new HistoryWorkload(),
            new TierWorkload(),
            new ClientCpuWorkload());

    /** Workloads whose measured clients run in processes of their own: this JVM's warm-up does nothing for them. */
    private static final Set<String> OWN_PROCESSES = Set.of("cpu", "scaleout");

    /**
     * What to run.
     *
     * @param workloads keys of the workloads to run (see {@link Workload#key()})
     * @param systems which systems to compare (Hourglass is always run)
     * @param sizes sizes of the workloads
     * @param rounds repetitions of each measurement (medians are reported)
     * @param outDir where the reports go
     * @param bullmqDir the folder with {@code bench.mjs}
     * @param commandLine the command as typed, for the report
     * @param warmUp whether to run the JVM-side systems once untimed before measuring
     */
    public record Options(
            Set<String> workloads,
            Set<SystemName> systems,
            Sizes sizes,
            int rounds,
            Path outDir,
            Path bullmqDir,
            String commandLine,
            boolean warmUp,
            boolean virtualThreads,
            Duration idempotencyWindow) {}

    private BenchRun() {}

    /**
     * @param options what to run
     * @param log progress output
     * @return every figure
     * @throws Exception when a workload cannot run or reports cannot be written
     */
    public static ResultTable run(Options options, PrintStream log) throws Exception {
        return run(options, ChildJvms.DEFAULTS, log);
    }

    /**
     * @param options what to run
     * @param childJvms how the JVMs the bench starts are run
     * @param log progress output
     * @return every figure
     * @throws Exception when a workload cannot run or reports cannot be written
     */
    public static ResultTable run(Options options, ChildJvms childJvms, PrintStream log) throws Exception {
        Instant started = Instant.now();
        List<String> skipped = new ArrayList<>();
        BenchContext context =
                new BenchContext(options.sizes(), options.rounds(), systems(options, log, skipped), log, childJvms);
        if (options.warmUp() && !OWN_PROCESSES.containsAll(options.workloads())) {
            context.log("warming up the JVM-side systems (untimed)");
            context.warmUp();
        }
        for (Workload workload : WORKLOADS) {
            if (options.workloads().contains(workload.key())) {
                context.log("=== " + workload.title());
                workload.run(context);
            }
        }
        String heading = heading(options, started, skipped);
        write(context, options.outDir(), heading);
        return context.results();
    }

    private static List<QueueSystem> systems(Options options, PrintStream log, List<String> skipped) {
        List<QueueSystem> systems =
                new ArrayList<>(List.of(new HourglassSystem(options.virtualThreads(), options.idempotencyWindow())));
        if (options.systems().contains(SystemName.REDISSON)) {
            systems.add(new RedissonSystem(options.virtualThreads()));
        }
        if (options.systems().contains(SystemName.BULLMQ)) {
            NodeRunner node = new NodeRunner(options.bullmqDir());
            Optional<String> problem = node.prepare();
            if (problem.isEmpty()) {
                systems.add(new BullmqSystem(node));
            } else {
                String message = "BullMQ skipped: " + problem.get();
                log.println("[bench] " + message);
                skipped.add(message);
            }
        }
        return systems;
    }

    private static String heading(Options options, Instant started, List<String> skipped) {
        StringBuilder b = new StringBuilder("## Hourglass benchmark results\n\n");
        b.append("- Command: `").append(options.commandLine()).append("`\n");
        b.append("- Started: ")
                .append(started)
                .append(", took ")
                .append(Duration.between(started, Instant.now()).toSeconds())
                .append(" s; rounds: ")
                .append(options.rounds())
                .append(" (medians shown)\n");
        b.append(MachineInfo.describe()).append('\n');
        skipped.forEach(s -> b.append("- ").append(s).append('\n'));
        b.append("\nRatios are Hourglass ÷ peer: above 1 is better for ↑ metrics, below 1 for ↓ metrics.\n");
        return b.toString();
    }

    private static void write(BenchContext context, Path outDir, String heading) throws IOException {
        Files.createDirectories(outDir);
        ResultTable results = context.results();
        Files.writeString(outDir.resolve("results.md"), MarkdownReport.render(results, heading));
        Files.writeString(outDir.resolve("results.csv"), CsvReport.summary(results));
        Files.writeString(outDir.resolve("rounds.csv"), CsvReport.rounds(results.measurements()));
        LatenessPlot.write(context.latenessCurves(), outDir.resolve("lateness.png"));
    }
}
