package io.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.bench.workloads.EndToEndWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every workload in smoke mode (tiny sizes, real redis-server processes, Redisson, and BullMQ when Node.js and npm
 * are usable) so the benchmark cannot rot. Asserts only that each workload ran and produced sane figures (every job
 * delivered, none early for Hourglass, positive rates), never performance thresholds.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BenchSmokeIntegrationTests {

    private static final String CLUSTER = "5. Cluster";
    private static final String SCALE_OUT = "7. Scale-out";

    @TempDir
    static Path out;

    private static ResultTable results;

    @BeforeAll
    static void runTheSmokeBench() throws Exception {
        Set<String> all = BenchRun.WORKLOADS.stream().map(Workload::key).collect(Collectors.toSet());
        BenchRun.Options options = new BenchRun.Options(
                all,
                EnumSet.allOf(SystemName.class),
                Sizes.smoke(),
                1,
                out,
                Path.of("bullmq"),
                "BenchSmokeIntegrationTests",
                false,
                false,
                null);
        results = BenchRun.run(options, System.err);
    }

    private static List<Measurement> where(String metricPrefix) {
        return results.measurements().stream()
                .filter(m -> m.metric().startsWith(metricPrefix))
                .toList();
    }

    @Test
    void everyWorkloadProducesATable() {
        assertThat(results.workloads())
                .containsExactlyElementsOf(
                        BenchRun.WORKLOADS.stream().map(Workload::title).toList());
    }

    @Test
    void noSystemFailsAnyScenario() {
        assertThat(where("failed")).isEmpty();
    }

    @Test
    void everyScheduledJobIsDeliveredAndHourglassNeverEarly() {
        // Counts of delivered jobs; the flow workload's "delivered per second" is a rate, and at smoke size on a busy
        // machine its first second's bucket may not even drain, so it is only checked to be a number.
        assertThat(where("delivered per second")).isNotEmpty().allSatisfy(m -> assertThat(m.value())
                .isFinite());
        assertThat(where("delivered"))
                .filteredOn(m -> m.unit().equals("jobs"))
                .isNotEmpty()
                .allSatisfy(m -> {
                    assertThat(m.value()).as(m.toString()).isPositive();
                    assertThat(m.note()).as(m.toString()).doesNotContain("never delivered");
                });
        assertThat(where("early"))
                .filteredOn(m -> m.system() == SystemName.HOURGLASS)
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m.value()).as(m.toString()).isZero());
    }

    @Test
    void ratesLatenciesAndCostsAreFiniteAndPositive() {
        for (String metric : List.of(
                "accepted",
                "throughput",
                "fill rate",
                "Redis memory per job",
                "get p99",
                "cancel p99",
                "commands per job",
                "script calls per job (EVALSHA, EVAL, FCALL)",
                "SET",
                "GET")) {
            assertThat(where(metric))
                    .as(metric)
                    .filteredOn(m -> !m.workload().equals(CLUSTER))
                    .isNotEmpty()
                    .filteredOn(m -> m.system() == SystemName.HOURGLASS || m.system() == SystemName.REDIS)
                    .allSatisfy(m ->
                            assertThat(m.value()).as(m.toString()).isPositive().isFinite());
        }
        assertThat(where("lateness p99"))
                .filteredOn(Measurement::measured)
                .isNotEmpty()
                .allSatisfy(m ->
                        assertThat(m.value()).as(m.toString()).isNotNegative().isFinite());
    }

    @Test
    void theEndToEndWorkloadSaysWhatRedisSpentPerJobAndWhetherItBoundTheSustainedRun() {
        String e2e = new EndToEndWorkload().title();
        // Burst and sustained of Hourglass, Redisson and BullMQ (Redis alone runs no end-to-end step), each on a
        // Redis of its own whose CPU and script calls are read around the step.
        assertThat(where("Redis CPU per job"))
                .filteredOn(m -> m.workload().equals(e2e))
                .hasSize(2 * 3)
                .allSatisfy(
                        m -> assertThat(m.value()).as(m.toString()).isPositive().isFinite());
        assertThat(where("script calls per job"))
                .filteredOn(m -> m.workload().equals(e2e) && m.system() == SystemName.HOURGLASS)
                .hasSize(2)
                .allSatisfy(
                        m -> assertThat(m.value()).as(m.toString()).isPositive().isLessThan(1.0));
        // Over the 50 ms intervals in which Redis worked: none at all leaves the share unknown (NaN), never 0.
        assertThat(where("Redis CPU use while busy"))
                .filteredOn(m -> m.workload().equals(e2e))
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m.value() > 0 || Double.isNaN(m.value()))
                        .as(m.toString())
                        .isTrue())
                .anySatisfy(m -> assertThat(m.value()).as(m.toString()).isPositive());
        assertThat(where("time with Redis idle"))
                .filteredOn(m -> m.workload().equals(e2e))
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m.value()).as(m.toString()).isNotNegative());
        // The sustained step's Redis CPU split at the first due time: scheduling comes before, every drain after it.
        assertThat(where("Redis CPU before the first job is due"))
                .filteredOn(m -> m.workload().equals(e2e))
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m.value()).as(m.toString()).isNotNegative());
        assertThat(where("Redis CPU from then on"))
                .filteredOn(m -> m.workload().equals(e2e))
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m.value()).as(m.toString()).isPositive());
    }

    @Test
    void theClusterWorkloadComparesThreeMastersWithOneByThroughputAndRedisCpuAndSaysWhyPeersDoNotRun() {
        assertThat(results.rows(CLUSTER)).anySatisfy(row -> {
            assertThat(row.metric()).isEqualTo("throughput");
            assertThat(row.value(SystemName.HOURGLASS)).isPositive();
        });
        assertThat(results.rows(CLUSTER))
                .filteredOn(row -> row.metric().endsWith("ratio"))
                .hasSize(3)
                .allSatisfy(row -> {
                    assertThat(row.scenario()).isEqualTo("3 masters ÷ 1 master");
                    assertThat(row.value(SystemName.HOURGLASS))
                            .as(row.metric())
                            .isPositive()
                            .isFinite();
                });
        assertThat(results.rows(CLUSTER))
                .filteredOn(row -> row.metric().startsWith("Redis CPU per job"))
                .hasSize(4)
                .allSatisfy(row -> assertThat(row.value(SystemName.HOURGLASS))
                        .as(row.scenario() + " " + row.metric())
                        .isPositive()
                        .isFinite());
        assertThat(results.rows(CLUSTER))
                .anySatisfy(row -> assertThat(row.joinedNotes()).contains("not run"));
    }

    @Test
    void theScaleOutWorkloadDrainsEveryBurstWithWorkerJvmsAndComparesMastersAndWorkers() {
        ScaleOutSizes sizes = Sizes.smoke().scaleOut();
        int layouts = sizes.masters().size() * sizes.workers().size();
        assertThat(results.rows(SCALE_OUT))
                .filteredOn(row -> row.metric().equals("delivered"))
                .hasSize(layouts)
                .allSatisfy(row -> assertThat(row.value(SystemName.HOURGLASS))
                        .as(row.scenario())
                        .isEqualTo(sizes.jobs()));
        assertThat(results.rows(SCALE_OUT))
                .filteredOn(row -> row.metric().equals("worker JVMs' CPU per job")
                        || row.metric().startsWith("Redis CPU per job"))
                .hasSize(3 * layouts)
                .allSatisfy(row -> assertThat(row.value(SystemName.HOURGLASS))
                        .as(row.scenario() + " " + row.metric())
                        .isPositive()
                        .isFinite());
        // which worker thread was busiest, and the worker CPU per job of each kind of thread
        assertThat(results.rows(SCALE_OUT))
                .filteredOn(row -> row.metric().equals("busiest worker thread's CPU use while draining"))
                .hasSize(layouts)
                .allSatisfy(row -> {
                    assertThat(row.value(SystemName.HOURGLASS)).isPositive().isFinite();
                    assertThat(row.joinedNotes()).containsAnyOf("lettuce-", "hourglass-");
                });
        assertThat(results.rows(SCALE_OUT))
                .filteredOn(row -> row.metric().equals("worker CPU per job in hourglass-worker-scale-out threads"))
                .hasSize(layouts)
                .allSatisfy(row -> assertThat(row.value(SystemName.HOURGLASS))
                        .as("the handlers ran every job")
                        .isPositive());
        // per worker count: schedule, burst and capacity ratios of 3 masters to 1; per cluster: 2 workers to 1
        assertThat(results.rows(SCALE_OUT))
                .filteredOn(row -> row.metric().endsWith("ratio"))
                .hasSize(3 * sizes.workers().size() + sizes.masters().size())
                .allSatisfy(row -> assertThat(row.value(SystemName.HOURGLASS))
                        .as(row.scenario() + " " + row.metric())
                        .isPositive()
                        .isFinite());
    }

    @Test
    void aWarmUpBurstIsDrainedFirstAndLeftOutOfTheScaleOutFigures(@TempDir Path warmOut) throws Exception {
        ScaleOutSizes sizes = Sizes.smoke()
                .scaleOut()
                .with(List.of(1), List.of(1), null, null)
                .withWarmUp(1_500);
        ResultTable warm = BenchRun.run(
                new BenchRun.Options(
                        Set.of("scaleout"),
                        EnumSet.of(SystemName.HOURGLASS),
                        Sizes.smoke().withScaleOut(sizes),
                        1,
                        warmOut,
                        Path.of("bullmq"),
                        "BenchSmokeIntegrationTests warm-up",
                        false,
                        false,
                        null),
                System.err);
        assertThat(warm.rows(SCALE_OUT))
                .filteredOn(row -> row.metric().equals("delivered"))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.scenario()).contains("warmed up by a burst of 1500");
                    assertThat(row.value(SystemName.HOURGLASS))
                            .as("the timed burst's jobs only")
                            .isEqualTo(sizes.jobs());
                });
        assertThat(warm.rows(SCALE_OUT))
                .filteredOn(row -> row.metric().equals("worker JVMs' CPU per job"))
                .singleElement()
                .satisfies(row ->
                        assertThat(row.value(SystemName.HOURGLASS)).isPositive().isFinite());
    }

    @Test
    void theHistoryWorkloadWritesOneEventPerJobOnlyWhenOnAndArchivesThemAll() {
        Sizes sizes = Sizes.smoke();
        assertThat(where("XADD per job, history off")).singleElement().satisfies(m -> assertThat(m.value())
                .isZero());
        // One XADD per script call: an ack batch's jobs share one entry.
        assertThat(where("XADD per job, history on"))
                .singleElement()
                .satisfies(m -> assertThat(m.value()).isPositive().isLessThanOrEqualTo(1.0));
        assertThat(where("history events per job, history on")).singleElement().satisfies(m -> assertThat(m.value())
                .isEqualTo(1.0));
        assertThat(where("archiver, the burst's events"))
                .singleElement()
                .satisfies(m -> assertThat(m.value()).isPositive().isFinite());
        assertThat(where("rows stored")).singleElement().satisfies(m -> assertThat(m.value())
                .isEqualTo(sizes.sustainedJobs()));
        assertThat(where("Redis time in scripts per job"))
                .filteredOn(m -> m.workload().equals(new io.hourglass.bench.workloads.HistoryWorkload().title()))
                .hasSize(2)
                .allSatisfy(m -> assertThat(m.value()).isPositive().isFinite());
    }

    private static double only(String metricPrefix) {
        List<Measurement> found = where(metricPrefix);
        assertThat(found).as(metricPrefix).hasSize(1);
        return found.get(0).value();
    }

    @Test
    void theTierWorkloadKeepsFarJobsOutOfRedisAndFeedsEveryJobOnTime() {
        TierSizes sizes = Sizes.smoke().tier();
        double scheduled = only("jobs scheduled");
        assertThat(scheduled).isEqualTo(sizes.jobs() + sizes.perJobSample() + sizes.callersIdSample());
        // No worker runs there: every job is in exactly one tier, and Redis holds only those due within reach.
        assertThat(only("rows in PostgreSQL") + only("jobs in Redis after")).isEqualTo(scheduled);
        assertThat(only("jobs in Redis after")).isLessThanOrEqualTo(only("jobs due within horizon + feeder lead"));
        assertThat(where("schedule into the cold tier"))
                .hasSize(3)
                .allSatisfy(
                        m -> assertThat(m.value()).as(m.toString()).isPositive().isFinite());
        assertThat(only("jobs moved into Redis")).isGreaterThanOrEqualTo(sizes.block());
        assertThat(only("feeder rows moved per second")).isPositive().isFinite();
        double fed = sizes.latenessRate() * sizes.latenessDuration().toSeconds();
        assertThat(only("jobs the feeder moved")).isEqualTo(fed);
        assertThat(where("delivered"))
                .filteredOn(m -> m.workload().equals(new io.hourglass.bench.workloads.TierWorkload().title()))
                .hasSize(2)
                .allSatisfy(m -> assertThat(m.value()).as(m.toString()).isEqualTo(fed));
    }

    @Test
    void theClientCpuWorkloadReportsTheWorkerProcessesCpuPerJobFreshAndWarmAndIdle() {
        String title = new io.hourglass.bench.workloads.ClientCpuWorkload().title();
        assertThat(results.rows(title))
                .filteredOn(row -> row.metric().startsWith("client CPU per job"))
                .hasSize(4) // fresh and second pass of both scenarios
                .allSatisfy(row -> assertThat(row.value(SystemName.HOURGLASS))
                        .as(row.scenario() + " " + row.metric())
                        .isPositive()
                        .isFinite());
        // The process's CPU time advances in clock ticks of 10 ms, and a quiet idle worker can spend less than one
        // in the smoke run's 2 s.
        assertThat(results.rows(title))
                .filteredOn(row -> row.metric().equals("idle worker CPU"))
                .singleElement()
                .satisfies(row -> assertThat(row.value(SystemName.HOURGLASS))
                        .as(row.scenario() + " " + row.metric())
                        .isNotNegative()
                        .isFinite());
    }

    @Test
    void reportsAreWrittenAsMarkdownCsvAndAPlot() throws Exception {
        for (String file : List.of("results.md", "results.csv", "rounds.csv", "lateness.png")) {
            assertThat(Files.size(out.resolve(file))).as(file).isPositive();
        }
        assertThat(Files.readString(out.resolve("results.md"))).contains("### 1. Schedule throughput", "| Hourglass |");
    }
}
