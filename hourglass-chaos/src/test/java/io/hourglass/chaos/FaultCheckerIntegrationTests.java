package io.hourglass.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The short run of the fault-injection checker: about 20 000 jobs over every scenario, every fault kind at least once,
 * against real redis-server, Sentinel and worker/producer JVMs.
 */
class FaultCheckerIntegrationTests {

    @AfterAll
    static void killWhateverIsLeft() {
        ChildJvm.killAll();
    }

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void theShortRunLosesNoAcceptedJobDeliversNothingEarlyAndExplainsEveryDuplicate() throws Exception {
        Path runDir = Path.of("target", "chaos-short-run").toAbsolutePath();
        deleteRecursively(runDir);
        ChaosOptions options = ChaosOptions.defaults(runDir);

        List<ScenarioResult> results = FaultChecker.run(options, System.out::println);

        assertThat(results).extracting(ScenarioResult::scenario).containsExactlyElementsOf(Scenario.parse("all"));
        Set<FaultKind> injected = EnumSet.noneOf(FaultKind.class);
        results.forEach(r -> injected.addAll(r.faults().keySet()));
        // the server faults belong to http-servers, which needs the server's jar, and the feeder and PostgreSQL faults
        // to cold-tier: neither is part of "all"
        assertThat(injected)
                .containsExactlyInAnyOrder(EnumSet.complementOf(EnumSet.of(
                                FaultKind.SERVER_KILL,
                                FaultKind.SERVER_PAUSE,
                                FaultKind.FEEDER_KILL,
                                FaultKind.FEEDER_PAUSE,
                                FaultKind.POSTGRES_KILL))
                        .toArray(FaultKind[]::new));
        for (ScenarioResult result : results) {
            assertThat(result.accepted()).as(result.line()).isEqualTo(options.jobsPerScenario());
            assertThat(result.early()).as(result.line()).isZero();
            assertThat(result.causes().unexplained()).as(result.line()).isZero();
            assertThat(result.unacceptedDeliveries()).as(result.line()).isZero();
            assertThat(result.delivered() + result.lost()).as(result.line()).isEqualTo(result.accepted());
            if (result.scenario().zeroLoss()) {
                assertThat(result.lost()).as(result.line()).isZero();
            }
        }
        assertThat(FaultChecker.passed(results)).isTrue();
        assertNoProcessLeft();
    }

    private static void assertNoProcessLeft() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive)
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(ProcessHandle.current()
                        .descendants()
                        .filter(ProcessHandle::isAlive)
                        .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")))
                .as("worker, producer and redis processes left behind")
                .isEmpty();
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
