package io.hourglass.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultPlanUnitTests {

    @Test
    void theServerScenarioPausesServersLongerThanALeaseAndAProducerTimeoutAndKillsServersAndRedis() {
        ChaosOptions defaults = ChaosOptions.defaults(Path.of("unused"));
        ServerOptions servers = new ServerOptions(Path.of("server.jar"), 2, 3, 6, 5_000, null);
        ChaosOptions options = new ChaosOptions(
                List.of(Scenario.HTTP_SERVERS),
                24_000,
                1,
                defaults.producers(),
                defaults.workers(),
                defaults.topics(),
                defaults.shards(),
                defaults.concurrency(),
                2_000,
                defaults.sweepMs(),
                defaults.maxDelayMs(),
                40,
                defaults.minWindowMs(),
                defaults.handlerMs(),
                defaults.workerKills(),
                3,
                defaults.pauses(),
                defaults.failovers(),
                defaults.sentinels(),
                Path.of("unused"),
                servers,
                defaults.tier());

        List<PlannedFault> plan = FaultPlan.of(Scenario.HTTP_SERVERS, options);

        assertThat(plan)
                .filteredOn(f -> f.kind() == FaultKind.SERVER_PAUSE)
                .hasSize(6)
                .allSatisfy(f -> {
                    assertThat(f.durationMs()).isGreaterThan(2_000 + 5_000);
                    assertThat(f.workerIndex()).isBetween(0, 1);
                });
        assertThat(plan).filteredOn(f -> f.kind() == FaultKind.SERVER_KILL).hasSize(3);
        assertThat(plan).filteredOn(f -> f.kind() == FaultKind.REDIS_KILL).hasSize(3);
        assertThat(plan).extracting(PlannedFault::atMs).isSorted().allSatisfy(at -> assertThat(at)
                .isBetween(1_000L, options.windowMs()));
        assertThat(FaultPlan.of(Scenario.HTTP_SERVERS, options)).as("seeded").isEqualTo(plan);
    }

    @Test
    void allLeavesOutTheScenariosThatNeedTheServersJarOrAColdTier() {
        assertThat(Scenario.parse("all"))
                .doesNotContain(Scenario.HTTP_SERVERS, Scenario.COLD_TIER)
                .hasSize(Scenario.values().length - 2);
        assertThat(Scenario.parse("cold-tier")).containsExactly(Scenario.COLD_TIER);
        assertThat(Scenario.parse("http-servers")).containsExactly(Scenario.HTTP_SERVERS);
    }
}
