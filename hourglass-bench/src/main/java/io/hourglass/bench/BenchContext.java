package io.hourglass.bench;

import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.systems.QueueSystem;
import io.hourglass.bench.systems.ScheduleLoad;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What workloads share: sizes, rounds, the systems to compare, the results, the lateness curves for the plot, and a
 * log. {@link #forEachSystem} gives every system a fresh Redis per round and keeps going when one fails.
 */
public final class BenchContext {
    /** How long each JVM-side system drains warm-up bursts before the first measured round. */
    static final Duration WARM_UP_DRAINING = Duration.ofSeconds(10);
    /** The most warm-up bursts a system gets, however fast it drains them. */
    static final int WARM_UP_MAX_BURSTS = 30;
    /** Jobs in each warm-up burst. */
    static final int WARM_UP_BURST_JOBS = 20_000;

    private final Sizes sizes;
    private final int rounds;
    private final List<QueueSystem> systems;
    private final ResultTable results = new ResultTable();
    private final Map<String, Histogram> latenessCurves = new LinkedHashMap<>();
    private final PrintStream log;
    private final ChildJvms childJvms;

    BenchContext(Sizes sizes, int rounds, List<QueueSystem> systems, PrintStream log) {
        this(sizes, rounds, systems, log, ChildJvms.DEFAULTS);
    }

    BenchContext(Sizes sizes, int rounds, List<QueueSystem> systems, PrintStream log, ChildJvms childJvms) {
        this.sizes = sizes;
        this.rounds = rounds;
        this.systems = List.copyOf(systems);
        this.log = log;
        this.childJvms = childJvms;
    }

    /** @return whether the end-to-end workload also runs in a fresh JVM per round ({@link ChildJvms#freshJvm()}) */
    public boolean freshJvm() {
        return childJvms.freshJvm();
    }

    /** @return options for the {@code java} command of the JVMs the bench starts; empty for none */
    public List<String> workerJvmOptions() {
        return childJvms.workerJvmOptions();
    }

    /** @return the sizes of this run */
    public Sizes sizes() {
        return sizes;
    }

    /** @return repetitions of each measurement */
    public int rounds() {
        return rounds;
    }

    /** @return the results so far */
    public ResultTable results() {
        return results;
    }

    /** @return the systems compared, Hourglass first */
    public List<QueueSystem> systems() {
        return systems;
    }

    /** @return lateness histograms merged over rounds, by series name (system and rate) */
    public synchronized Map<String, Histogram> latenessCurves() {
        return new LinkedHashMap<>(latenessCurves);
    }

    /**
     * @param series e.g. "Hourglass 1000/s"
     * @param histogram lateness in microseconds, added to the series
     */
    public synchronized void addLatenessCurve(String series, Histogram histogram) {
        latenessCurves
                .computeIfAbsent(series, k -> new Histogram(histogram.getHighestTrackableValue(), 3))
                .add(histogram);
    }

    /** @param message a progress line for the log */
    public void log(String message) {
        log.println("[bench] " + message);
        log.flush();
    }

    /**
     * @param workload workload title
     * @param scenario scenario name
     * @param system who
     * @param round 1-based
     * @return a scope that records figures of that system, round and scenario
     */
    public ScenarioScope scope(String workload, String scenario, SystemName system, int round) {
        return new ScenarioScope(results, workload, scenario, system, round);
    }

    /**
     * Runs every JVM-side system untimed on a fresh Redis until it has drained bursts for {@link #WARM_UP_DRAINING} (at
     * most {@link #WARM_UP_MAX_BURSTS} bursts), plus a schedule run and a short fixed rate, so that the first measured
     * round does not pay for class loading and JIT compilation. A time, not a count, as JMH warms up: on 2 vCPUs
     * Hourglass's drain path was still being compiled by C2 after four 20k bursts (0.8 s of compiling in the fourth),
     * and its first measured round ran at 57-76% of the later ones; after about ten the compiler is quiet.
     */
    void warmUp() {
        for (QueueSystem system : systems) {
            if (system.name() == SystemName.BULLMQ) {
                continue;
            }
            try (FreshRedis redis = FreshRedis.start()) {
                system.scheduleSeconds(redis, new ScheduleLoad(20_000, 64, 2));
                double drained = 0;
                int bursts = 0;
                while (drained < WARM_UP_DRAINING.toMillis() / 1000.0 && bursts < WARM_UP_MAX_BURSTS) {
                    drained += system.burst(redis, WARM_UP_BURST_JOBS, sizes.consumers(), Duration.ofSeconds(1))
                            .seconds();
                    bursts++;
                }
                log("warmed up " + system.name().label() + " with " + bursts + (bursts == 1 ? " burst" : " bursts")
                        + " of " + WARM_UP_BURST_JOBS + " jobs");
                system.fixedRate(redis, 2_000, Duration.ofSeconds(1), sizes.consumers(), sizes.fixedRateLead());
            } catch (Exception e) {
                log("warm-up of " + system.name().label() + " failed: " + e);
            }
        }
    }

    /** A step run once per system and round. */
    @FunctionalInterface
    public interface SystemStep {
        /**
         * @param system the system to drive
         * @param redis a fresh server of its own
         * @param scope where its figures go
         * @throws Exception when it fails; recorded as a note, and the run goes on
         */
        void run(QueueSystem system, FreshRedis redis, ScenarioScope scope) throws Exception;
    }

    /**
     * Runs a step for every round and system, each on a fresh Redis, one after another.
     *
     * @param workload workload title
     * @param scenario scenario name
     * @param step what to do
     */
    public void forEachSystem(String workload, String scenario, SystemStep step) {
        for (int round = 1; round <= rounds; round++) {
            for (QueueSystem system : systems) {
                ScenarioScope scope = scope(workload, scenario, system.name(), round);
                long start = System.nanoTime();
                try (FreshRedis redis = FreshRedis.start()) {
                    step.run(system, redis, scope);
                    log(String.format(
                            "%s / %s / %s round %d: %.1f s",
                            workload, scenario, system.name().label(), round, (System.nanoTime() - start) / 1e9));
                } catch (Exception e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    log(workload + " / " + scenario + " / " + system.name().label() + " FAILED: " + e);
                    scope.add("failed", "", Direction.INFO, Double.NaN, "failed: " + e.getMessage());
                }
            }
        }
    }
}
