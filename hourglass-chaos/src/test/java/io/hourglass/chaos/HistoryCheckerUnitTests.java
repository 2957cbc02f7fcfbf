package io.hourglass.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class HistoryCheckerUnitTests {
    private static final long LEASE = 2_000;
    private final History history = new History();

    private void accept(String id, long dueMs, long acceptedMs) {
        history.accepted.put(History.key("t0", id), new Acceptance("t0", id, dueMs, dueMs, acceptedMs, 1));
    }

    private void deliver(String id, int attempt, long wallMs, long pid) {
        history.deliveries
                .computeIfAbsent(History.key("t0", id), k -> new ArrayList<>())
                .add(new DeliveryRecord("t0", id, attempt, wallMs, "r", pid));
    }

    private ScenarioResult check() {
        return new HistoryChecker(Scenario.WORKER_KILLS, LEASE).check(history, 0);
    }

    @Test
    void anAcceptedJobNeverDeliveredIsLostAndItsLossWindowRunsToTheNextRedisFault() {
        accept("a", 1_000, 900);
        accept("b", 1_000, 900);
        deliver("a", 1, 1_000, 7);
        history.faults.add(new Fault(FaultKind.FAILOVER, "redis-master", 1, 1_400, 5_000));

        ScenarioResult result = check();

        assertThat(result.accepted()).isEqualTo(2);
        assertThat(result.delivered()).isEqualTo(1);
        assertThat(result.lost()).isEqualTo(1);
        assertThat(result.lossWindowMs()).isEqualTo(500);
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aDeliveryBeforeTheDueTimeIsEarly() {
        accept("a", 1_000, 500);
        deliver("a", 1, 999, 7);

        assertThat(check().early()).isEqualTo(1);
    }

    @Test
    void duplicatesAreExplainedByAWorkerFaultARedisFaultOrALeaseExpiryAndOtherwiseNot() {
        accept("killed", 0, 0);
        deliver("killed", 1, 1_000, 7);
        deliver("killed", 2, 3_100, 8);
        history.faults.add(new Fault(FaultKind.WORKER_KILL, "worker-0-g0", 7, 1_050, 1_060));
        accept("lease", 0, 0);
        deliver("lease", 1, 10_000, 8);
        deliver("lease", 2, 12_000, 9);
        accept("same-attempt", 0, 0);
        deliver("same-attempt", 1, 20_000, 8);
        deliver("same-attempt", 1, 20_100, 9);
        accept("redis", 0, 0);
        deliver("redis", 1, 30_000, 8);
        deliver("redis", 1, 30_500, 9);
        history.faults.add(new Fault(FaultKind.REDIS_KILL, "redis", 1, 30_200, 30_300));

        ScenarioResult result = check();

        assertThat(result.duplicates()).isEqualTo(4);
        assertThat(result.causes()).isEqualTo(new ScenarioResult.DuplicateCauses(1, 1, 1, 1));
        assertThat(result.passed()).isFalse();
    }

    @Test
    void latenessIsMeasuredToTheFirstDelivery() {
        accept("a", 1_000, 0);
        deliver("a", 1, 1_250, 7);
        deliver("a", 2, 4_000, 8);

        ScenarioResult result = check();

        assertThat(result.maxLatenessMs()).isEqualTo(250);
        assertThat(result.early()).isZero();
    }
}
