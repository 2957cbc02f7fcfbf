package io.hourglass.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class CallbackHistoryCheckerUnitTests {
    private static final long LEASE = 2_000;
    private final History history = new History();

    private void accept(String id, long dueMs) {
        history.accepted.put(History.key("t0", id), new Acceptance("t0", id, dueMs, dueMs, dueMs - 500, 1));
    }

    private void callback(String id, int attempt, int creatorTry, long startMs, long endMs, int status) {
        history.callbacks
                .computeIfAbsent(History.key("t0", id), k -> new ArrayList<>())
                .add(new CallbackRecord("t0", id, attempt, creatorTry, startMs, endMs, status));
    }

    private ScenarioResult check() {
        return new CallbackHistoryChecker(Scenario.HTTP_SERVERS, LEASE).check(history, 0);
    }

    @Test
    void aJobIsCompleteOnlyOnceItsCallbackWasAnswered2xx() {
        accept("done", 1_000);
        callback("done", 1, 1, 1_000, 1_010, 500);
        callback("done", 2, 1, 1_300, 1_310, 200);
        accept("failing", 1_000);
        callback("failing", 1, 1, 1_000, 1_010, 500);
        accept("never", 1_000);

        ScenarioResult result = check();

        assertThat(result.delivered()).isEqualTo(1);
        assertThat(result.lost()).isEqualTo(2);
        assertThat(result.duplicates()).isEqualTo(1);
        assertThat(result.callbacks().retries()).isEqualTo(1);
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aCallbackCarryingAnotherCreatorTryIsARecreationEvenAfterAServerPause() {
        accept("a", 1_000);
        callback("a", 1, 2, 1_000, 1_010, 200);
        callback("a", 1, 1, 9_000, 9_010, 200);
        history.faults.add(new Fault(FaultKind.SERVER_PAUSE, "server-0-g0", 7, 500, 8_900));

        ScenarioResult result = check();

        assertThat(result.callbacks().recreated()).isEqualTo(1);
        assertThat(result.callbacks().recreatedJobs()).isEqualTo(1);
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aCallbackThatBeginsWhileTheJobsSlowCallbackWaitsOverlapsUnlessAFaultExplainsIt() {
        accept("slow", 1_000);
        callback("slow", 1, 1, 1_000, 6_000, 200);
        callback("slow", 2, 1, 3_200, 3_210, 200);
        accept("paused", 20_000);
        callback("paused", 1, 1, 20_000, 25_000, 200);
        callback("paused", 2, 1, 22_500, 22_510, 200);
        history.faults.add(new Fault(FaultKind.SERVER_PAUSE, "server-1-g0", 8, 20_100, 26_000));

        ScenarioResult result = check();

        assertThat(result.callbacks().overlapping()).isEqualTo(1);
        assertThat(result.causes().workerFault()).isEqualTo(1);
        assertThat(result.callbacks().slow()).isEqualTo(2);
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aRedeliveryAfterA2xxIsExplainedByARedisOrServerFaultAndOtherwiseNot() {
        accept("redis", 1_000);
        callback("redis", 1, 1, 1_000, 1_010, 200);
        callback("redis", 2, 1, 3_500, 3_510, 200);
        history.faults.add(new Fault(FaultKind.REDIS_KILL, "redis", 1, 1_020, 1_800));
        accept("stale", 10_000);
        callback("stale", 2, 1, 10_000, 10_010, 200);
        callback("stale", 1, 1, 10_500, 10_510, 200);
        history.faults.add(new Fault(FaultKind.SERVER_KILL, "server-0-g0", 7, 10_300, 10_310));
        accept("nothing", 30_000);
        callback("nothing", 1, 1, 30_000, 30_010, 200);
        callback("nothing", 2, 1, 33_000, 33_010, 200);

        ScenarioResult result = check();

        assertThat(result.causes()).isEqualTo(new ScenarioResult.DuplicateCauses(1, 1, 0, 1));
        assertThat(result.callbacks().recreated()).isZero();
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aCallbackBeforeTheDueTimeIsEarlyAndACleanHistoryPasses() {
        accept("a", 1_000);
        callback("a", 1, 1, 999, 1_005, 200);
        assertThat(check().early()).isEqualTo(1);

        history.callbacks.clear();
        callback("a", 1, 1, 1_000, 1_005, 500);
        callback("a", 2, 1, 1_300, 6_400, 200);
        ScenarioResult result = check();
        assertThat(result.early()).isZero();
        assertThat(result.passed()).isTrue();
        assertThat(result.maxLatenessMs()).isZero();
    }
}
