package io.hourglass.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The smoke size of the cold-tier scenario: 200 jobs over 2 s, most of them through PostgreSQL, some rescheduled and
 * cancelled across the tiers, while a feeder is killed and another paused, and PostgreSQL and Redis are killed. The
 * long run is a command line (RELIABILITY.md).
 */
class ColdTierChaosIntegrationTests {

    @AfterAll
    static void killWhateverIsLeft() {
        ChildJvm.killAll();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void feederAndPostgresCrashesLoseNothingRunNothingEarlyAndExplainEveryDuplicate() throws Exception {
        Path runDir = Path.of("target", "chaos-cold-tier").toAbsolutePath();
        deleteRecursively(runDir);
        ChaosOptions defaults = ChaosOptions.defaults(runDir);
        ChaosOptions options = new ChaosOptions(
                List.of(Scenario.COLD_TIER),
                200,
                1,
                1,
                1,
                2,
                2,
                defaults.concurrency(),
                defaults.leaseMs(),
                defaults.sweepMs(),
                defaults.maxDelayMs(),
                100,
                2_000,
                defaults.handlerMs(),
                0,
                1,
                0,
                0,
                defaults.sentinels(),
                runDir,
                defaults.servers(),
                new TierOptions(2, 1, 1, 1, 2_000, 5_000));

        List<ScenarioResult> results = FaultChecker.run(options, System.out::println);

        assertThat(results).hasSize(1);
        ScenarioResult result = results.get(0);
        assertThat(result.faults())
                .as(result.line())
                .containsOnlyKeys(
                        FaultKind.FEEDER_KILL, FaultKind.FEEDER_PAUSE, FaultKind.POSTGRES_KILL, FaultKind.REDIS_KILL);
        assertThat(result.accepted()).as(result.line()).isEqualTo(200);
        assertThat(result.lost()).as(result.line()).isZero();
        assertThat(result.early()).as(result.line()).isZero();
        assertThat(result.causes().unexplained()).as(result.line()).isZero();
        assertThat(result.unacceptedDeliveries()).as(result.line()).isZero();
        ScenarioResult.Tiers tiers = result.tiers();
        assertThat(tiers.runAfterCancel()).as(result.line()).isZero();
        // 60% of the jobs are due beyond the 2 s horizon
        assertThat(tiers.moved()).as(result.line()).isGreaterThan(80);
        assertThat(tiers.rescheduled() + tiers.cancelled()).as(result.line()).isPositive();
        assertThat(result.delivered() + tiers.cancelled()).as(result.line()).isGreaterThanOrEqualTo(200);
        assertThat(result.passed()).as(result.line()).isTrue();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
