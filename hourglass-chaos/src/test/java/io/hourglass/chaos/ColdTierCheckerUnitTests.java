package io.hourglass.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class ColdTierCheckerUnitTests {
    private static final long LEASE = 2_000;
    private final History history = new History();

    private void accept(String id, long dueMs) {
        history.accepted.put(History.key("t0", id), new Acceptance("t0", id, dueMs, dueMs, 0, 1));
    }

    private void deliver(String id, int attempt, long wallMs, String receipt, long pid) {
        history.deliveries
                .computeIfAbsent(History.key("t0", id), k -> new ArrayList<>())
                .add(new DeliveryRecord("t0", id, attempt, wallMs, receipt, pid));
    }

    private ScenarioResult check() {
        return new ColdTierChecker(Scenario.COLD_TIER, LEASE).check(history, 0);
    }

    @Test
    void aCancelledJobIsNotLostButMustNotRunAfterItsCancelReturned() {
        accept("cancelled", 5_000);
        accept("ranAfterCancel", 5_000);
        accept("lost", 5_000);
        history.cancels.put(History.key("t0", "cancelled"), new TierOperation(-1, 1_000, 1_100, true, 1));
        history.cancels.put(History.key("t0", "ranAfterCancel"), new TierOperation(-1, 1_000, 1_100, true, 1));
        deliver("ranAfterCancel", 1, 5_000, "r", 7);

        ScenarioResult result = check();

        assertThat(result.lost()).isEqualTo(1);
        assertThat(result.tiers().cancelled()).isEqualTo(2);
        assertThat(result.tiers().runAfterCancel()).isEqualTo(1);
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aDeliveryIsEarlyAgainstTheDueTimeInForceAroundAReschedule() {
        accept("a", 10_000);
        // rescheduled to 8 s, the call running from 2 s to 3 s: a delivery at 8.5 s is on time
        history.reschedules.put(History.key("t0", "a"), new TierOperation(8_000, 2_000, 3_000, true, 1));
        deliver("a", 1, 8_500, "r", 7);
        accept("b", 10_000);
        // rescheduled to 12 s: a delivery at 11 s, after the reschedule returned, is early
        history.reschedules.put(History.key("t0", "b"), new TierOperation(12_000, 2_000, 3_000, true, 1));
        deliver("b", 1, 11_000, "r", 7);

        ScenarioResult result = check();

        assertThat(result.early()).isEqualTo(1);
        assertThat(ColdTierChecker.dueAt(history.accepted.get("t0/a"), history.reschedules.get("t0/a"), 2_500))
                .as("while the reschedule runs, the earlier of the two")
                .isEqualTo(8_000);
        assertThat(ColdTierChecker.dueAt(history.accepted.get("t0/b"), history.reschedules.get("t0/b"), 1_000))
                .as("before it began, the scheduled one")
                .isEqualTo(10_000);
    }

    @Test
    void aDuplicateIsALeaseExpiryOnlyAfterTheRecordedLeaseDeadlineAndAFeederKillExplainsNone() {
        accept("late", 1_000);
        deliver("late", 1, 1_800, "r/lease@2100", 7);
        deliver("late", 2, 2_200, "lease@4200", 8);
        accept("early", 1_000);
        deliver("early", 1, 1_800, "r/lease@2100", 7);
        deliver("early", 2, 2_000, "lease@4000", 8);
        history.faults.add(new Fault(FaultKind.FEEDER_KILL, "feeder-0-g0", 99, 1_900, 1_950));
        history.faults.add(new Fault(FaultKind.POSTGRES_KILL, "postgres", 98, 1_900, 1_950));

        ScenarioResult result = check();

        assertThat(result.duplicates()).isEqualTo(2);
        assertThat(result.causes().leaseExpiry()).isEqualTo(1);
        assertThat(result.causes().unexplained()).isEqualTo(1);
    }
}
