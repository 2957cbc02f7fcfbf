package io.hourglass.bench;

import io.hourglass.WorkerOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line: {@code java -jar hourglass-bench/target/hourglass-bench.jar --workloads all --rounds 3}. Prints the
 * results as Markdown tables and writes them, with CSV and a lateness plot, to {@code --out}.
 */
@Command(
        name = "hourglass-bench",
        mixinStandardHelpOptions = true,
        description = "Runs Hourglass, Redisson's RDelayedQueue and BullMQ through the same workloads, each against "
                + "a fresh redis-server, and reports figures and ratios Hourglass/peer.")
public final class BenchCommand implements Callable<Integer> {

    @Option(
            names = "--workloads",
            split = ",",
            defaultValue = "all",
            description = "Comma-separated: schedule, e2e, lateness, backlog, cluster, physical, scaleout, retention,"
                    + " flow, history, tier, cpu, or all (default).")
    List<String> workloads;

    @Option(
            names = "--systems",
            split = ",",
            defaultValue = "hourglass,redisson,bullmq",
            description = "Comma-separated: hourglass, redisson, bullmq (default all three; Hourglass always runs).")
    List<String> systems;

    @Option(names = "--rounds", defaultValue = "1", description = "Repetitions of each measurement (default 1).")
    int rounds;

    @Option(names = "--smoke", description = "Tiny sizes: every workload runs in seconds.")
    boolean smoke;

    @Option(names = "--big", description = "Also a 10M-job backlog (several minutes, several GiB of Redis).")
    boolean big;

    @Option(names = "--lateness-seconds", description = "Duration of each fixed rate (default 60, smoke 1).")
    Integer latenessSeconds;

    @Option(
            names = "--peer-backlog",
            description = "Largest backlog filled for Redisson and BullMQ " + "(default 200000).")
    Integer peerBacklog;

    @Option(
            names = "--virtual-threads",
            description = "Hourglass's handlers and Redisson's consumers on virtual " + "threads (Java 21 or later).")
    boolean virtualThreads;

    @Option(
            names = "--idempotency-window-ms",
            description = "Hourglass's idempotency window in ms, 0 for off (default: the builder's, 1 h).")
    Long idempotencyWindowMs;

    @Option(
            names = "--scaleout-masters",
            split = ",",
            description = "Cluster sizes of the scale-out workload (default 1,3,6; smoke 1,3).")
    List<Integer> scaleOutMasters;

    @Option(
            names = "--scaleout-workers",
            split = ",",
            description = "Worker JVMs of the scale-out workload (default 1,2,4; smoke 1,2).")
    List<Integer> scaleOutWorkers;

    @Option(
            names = "--scaleout-concurrency",
            description = "Handler slots of each scale-out worker JVM (default 32; smoke 4).")
    Integer scaleOutConcurrency;

    @Option(names = "--scaleout-jobs", description = "Jobs of the scale-out burst (default 200000; smoke 2000).")
    Integer scaleOutJobs;

    @Option(
            names = "--scaleout-lead-ms",
            description = "How far ahead the scale-out burst is due, in ms: scheduling must end first (default 10000,"
                    + " or 1 ms per 20 jobs when --scaleout-jobs is larger).")
    Integer scaleOutLeadMs;

    @Option(
            names = "--scaleout-warm-up-jobs",
            description = "Jobs of an untimed burst that the scale-out worker JVMs drain before the timed one, so that"
                    + " a warm fleet is measured (default 0: the worker JVMs meet the timed burst cold).")
    Integer scaleOutWarmUpJobs;

    @Option(
            names = "--tier-jobs",
            description = "Jobs due over a year of the tier workload (default 1000000; smoke 20000).")
    Integer tierJobs;

    @Option(
            names = "--fresh-jvm",
            description = "Also run each end-to-end round of Hourglass and Redisson in a fresh JVM with no warm-up.")
    boolean freshJvm;

    @Option(
            names = "--worker-jvm-options",
            description =
                    "Options, separated by spaces, for the java command of the JVMs the bench starts"
                            + " (--fresh-jvm rounds, the client-CPU and scale-out workloads' workers), e.g. \"-XX:TieredStopAtLevel=1\".")
    String workerJvmOptions;

    @Option(
            names = "--out",
            description =
                    "Output folder (default hourglass-bench/results, or results when run " + "inside the module).")
    Path out;

    @Option(
            names = "--bullmq-dir",
            description = "Folder with bench.mjs (default hourglass-bench/bullmq, or bullmq "
                    + "when run inside the module).")
    Path bullmqDir;

    /** @param args command-line arguments; see {@code --help} */
    public static void main(String[] args) {
        int exit = new CommandLine(new BenchCommand()).execute(args);
        System.exit(exit);
    }

    @Override
    public Integer call() throws Exception {
        if (virtualThreads && !WorkerOptions.virtualThreadsAvailable()) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "--virtual-threads needs Java 21 or later; " + "this JVM is Java "
                            + Runtime.version().feature());
        }
        Sizes sizes = smoke ? Sizes.smoke() : Sizes.full(big);
        if (latenessSeconds != null) {
            sizes = sizes.withRateDuration(Duration.ofSeconds(latenessSeconds));
        }
        if (peerBacklog != null) {
            sizes = sizes.withPeerBacklogCap(peerBacklog);
        }
        sizes = sizes.withScaleOut(sizes.scaleOut()
                .with(scaleOutMasters, scaleOutWorkers, scaleOutConcurrency, scaleOutJobs)
                .withLead(scaleOutLeadMs)
                .withWarmUp(scaleOutWarmUpJobs));
        sizes = sizes.withTier(sizes.tier().withJobs(tierJobs));
        BenchRun.Options options = new BenchRun.Options(
                workloadKeys(),
                systemNames(),
                sizes,
                Math.max(1, rounds),
                out != null ? out : moduleRelative("results"),
                bullmqDir != null ? bullmqDir : moduleRelative("bullmq"),
                commandLine(),
                !smoke,
                virtualThreads,
                idempotencyWindowMs == null ? null : Duration.ofMillis(idempotencyWindowMs));
        ChildJvms childJvms = new ChildJvms(
                freshJvm,
                workerJvmOptions == null || workerJvmOptions.isBlank()
                        ? List.of()
                        : List.of(workerJvmOptions.trim().split("\\s+")));
        ResultTable results = BenchRun.run(options, childJvms, System.err);
        System.out.println(io.hourglass.bench.report.MarkdownReport.render(results, ""));
        System.err.println("[bench] reports written to " + options.outDir().toAbsolutePath());
        return 0;
    }

    private Set<String> workloadKeys() {
        Set<String> known = BenchRun.WORKLOADS.stream().map(Workload::key).collect(Collectors.toSet());
        Set<String> keys = new LinkedHashSet<>();
        for (String w : workloads) {
            String key = w.trim().toLowerCase(java.util.Locale.ROOT);
            if (key.equals("all")) {
                keys.addAll(known);
            } else if (known.contains(key)) {
                keys.add(key);
            } else {
                throw new CommandLine.ParameterException(
                        new CommandLine(this), "unknown workload " + w + "; one of " + known + " or all");
            }
        }
        return keys;
    }

    private Set<SystemName> systemNames() {
        Set<SystemName> names = EnumSet.of(SystemName.HOURGLASS);
        for (String s : systems) {
            names.add(SystemName.valueOf(s.trim().toUpperCase(java.util.Locale.ROOT)));
        }
        return names;
    }

    /** Resolves a folder of this module whether run from the repository root or from the module itself. */
    private static Path moduleRelative(String folder) {
        Path fromRoot = Path.of("hourglass-bench", folder);
        return Files.isDirectory(Path.of("hourglass-bench")) ? fromRoot : Path.of(folder);
    }

    private String commandLine() {
        StringBuilder b = new StringBuilder("java -jar hourglass-bench/target/hourglass-bench.jar --workloads ")
                .append(String.join(",", workloads))
                .append(" --rounds ")
                .append(rounds);
        if (!systemNames().containsAll(EnumSet.of(SystemName.REDISSON, SystemName.BULLMQ))) {
            b.append(" --systems ").append(String.join(",", systems));
        }
        if (smoke) {
            b.append(" --smoke");
        }
        if (big) {
            b.append(" --big");
        }
        if (virtualThreads) {
            b.append(" --virtual-threads");
        }
        if (idempotencyWindowMs != null) {
            b.append(" --idempotency-window-ms ").append(idempotencyWindowMs);
        }
        if (freshJvm) {
            b.append(" --fresh-jvm");
        }
        if (workerJvmOptions != null) {
            b.append(" --worker-jvm-options \"").append(workerJvmOptions).append('"');
        }
        if (latenessSeconds != null) {
            b.append(" --lateness-seconds ").append(latenessSeconds);
        }
        if (peerBacklog != null) {
            b.append(" --peer-backlog ").append(peerBacklog);
        }
        appendList(b, "--scaleout-masters", scaleOutMasters);
        appendList(b, "--scaleout-workers", scaleOutWorkers);
        if (scaleOutConcurrency != null) {
            b.append(" --scaleout-concurrency ").append(scaleOutConcurrency);
        }
        if (scaleOutJobs != null) {
            b.append(" --scaleout-jobs ").append(scaleOutJobs);
        }
        if (scaleOutLeadMs != null) {
            b.append(" --scaleout-lead-ms ").append(scaleOutLeadMs);
        }
        if (scaleOutWarmUpJobs != null) {
            b.append(" --scaleout-warm-up-jobs ").append(scaleOutWarmUpJobs);
        }
        if (tierJobs != null) {
            b.append(" --tier-jobs ").append(tierJobs);
        }
        return b.toString();
    }

    private static void appendList(StringBuilder b, String option, List<Integer> values) {
        if (values != null) {
            b.append(' ').append(option).append(' ');
            b.append(values.stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
    }
}
