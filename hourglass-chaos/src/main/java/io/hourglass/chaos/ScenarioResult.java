package io.hourglass.chaos;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the offline check of one scenario's history found.
 *
 * @param scenario the scenario
 * @param accepted jobs whose {@code schedule} returned
 * @param delivered accepted jobs delivered at least once
 * @param lost accepted jobs never delivered
 * @param early deliveries whose handler started before the job's due time (same clock as Redis's TIME)
 * @param duplicates deliveries beyond the first of each job
 * @param duplicates explained by why they happened, and the unexplained ones
 * @param maxLatenessMs longest time from a job's due time to its first delivery
 * @param p99LatenessMs 99th percentile of that time
 * @param faults injected faults by kind
 * @param lossWindowMs for lost jobs, the longest time from acceptance to the Redis fault that lost them; 0 if none
 * @param unacceptedDeliveries deliveries of jobs no producer was told were accepted (expected 0)
 * @param durationMs how long the scenario ran
 */
public record ScenarioResult(
        Scenario scenario,
        long accepted,
        long delivered,
        long lost,
        long early,
        long duplicates,
        DuplicateCauses causes,
        long maxLatenessMs,
        long p99LatenessMs,
        Map<FaultKind, Long> faults,
        long lossWindowMs,
        long unacceptedDeliveries,
        long durationMs) {

    /**
     * Why duplicates happened.
     *
     * @param workerFault the worker of one of the two deliveries was killed or paused between them
     * @param redisFault Redis was killed, paused or failed over between them
     * @param leaseExpiry a later attempt after the lease of the earlier one ran out, without a fault
     * @param unexplained none of these: a defect
     */
    public record DuplicateCauses(long workerFault, long redisFault, long leaseExpiry, long unexplained) {}

    /** @return whether the scenario passed: nothing early, no unexplained duplicate, nothing lost if zero-loss */
    public boolean passed() {
        return early == 0 && causes.unexplained() == 0 && (!scenario.zeroLoss() || lost == 0);
    }

    /** @return the one-line report */
    public String line() {
        String faultList = faults.isEmpty()
                ? "none"
                : faults.entrySet().stream()
                        .map(e -> e.getKey().label() + " x" + e.getValue())
                        .collect(Collectors.joining(", "));
        String verdict = passed() ? (scenario.zeroLoss() ? "PASS" : "PASS (loss reported, not failed)") : "FAIL";
        return String.format(
                "%-24s accepted=%d delivered=%d lost=%d early=%d duplicates=%d"
                        + " (worker-fault %d, redis-fault %d, lease-expiry %d, unexplained %d) maxLateness=%dms"
                        + " p99=%dms"
                        + "%s faults=[%s] %ds %s",
                scenario.label(),
                accepted,
                delivered,
                lost,
                early,
                duplicates,
                causes.workerFault(),
                causes.redisFault(),
                causes.leaseExpiry(),
                causes.unexplained(),
                maxLatenessMs,
                p99LatenessMs,
                lost > 0 ? " lossWindow=" + lossWindowMs + "ms" : "",
                faultList,
                durationMs / 1000,
                verdict);
    }
}
