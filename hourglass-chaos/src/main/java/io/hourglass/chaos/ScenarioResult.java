package io.hourglass.chaos;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the offline check of one scenario's history found.
 *
 * @param scenario the scenario
 * @param accepted jobs whose {@code schedule} returned
 * @param delivered accepted jobs delivered at least once (with callbacks: answered 2xx at least once)
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
 * @param callbacks what a {@link Scenario#servers()} scenario found about its POSTs and callbacks; null for the others
 * @param tiers what the {@link Scenario#coldTier()} scenario found about moves, reschedules and cancels; null for the
 *     others
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
        long durationMs,
        Callbacks callbacks,
        Tiers tiers) {

    /**
     * What the cold-tier scenario found beyond the common columns. Its duplicates are explained as in the other
     * scenarios (a Redis fault, a worker fault, a lease expiry); a feeder's or PostgreSQL's crash explains none.
     *
     * @param moved jobs the feeders took out of PostgreSQL, as the feeders reported them (a killed feeder's last
     *     fraction of a second is missing)
     * @param resent of those, the ones Redis had already: moves a crash cut between Redis's accept and the delete's
     *     commit, whose next try found the job in Redis (or a reschedule that moved the job first)
     * @param maxLagMs the largest feeder lag a feeder reported
     * @param rescheduled reschedules that returned, of which {@code rescheduledFound} found the job
     * @param rescheduledFound reschedules that found the job
     * @param cancelled cancels that returned
     * @param runAfterCancel deliveries that began after a cancel of their job had returned (must be 0)
     * @param rescheduleRaces duplicates of a job a reschedule took back from its worker, or out of Redis while a worker
     *     ran it: both documented ({@code Hourglass.reschedule}; README, "Tiered storage")
     * @param setAside jobs Redis refused that stay in PostgreSQL (counted as lost too)
     */
    public record Tiers(
            long moved,
            long resent,
            long maxLagMs,
            long rescheduled,
            long rescheduledFound,
            long cancelled,
            long runAfterCancel,
            long rescheduleRaces,
            long setAside) {

        boolean passed() {
            return runAfterCancel == 0;
        }
    }

    /**
     * Why duplicates happened.
     *
     * @param workerFault the worker of one of the two deliveries was killed or paused between them
     * @param redisFault Redis was killed, paused or failed over between them
     * @param leaseExpiry a later attempt after the lease of the earlier one ran out, without a fault
     * @param unexplained none of these: a defect
     */
    public record DuplicateCauses(long workerFault, long redisFault, long leaseExpiry, long unexplained) {}

    /**
     * What a scenario with servers and HTTP callbacks found beyond the common columns. There, a duplicate is a callback
     * beyond the first of a job; {@link DuplicateCauses#workerFault()} counts those explained by a server's kill or
     * pause, and {@link DuplicateCauses#leaseExpiry()} is 0.
     *
     * @param delivered callbacks the receiver answered, of every job and attempt
     * @param slow callbacks answered 200 only after more than the lease
     * @param retries duplicates that follow a callback answered 500: the retries the receiver asked for
     * @param recreated duplicates of a job that a later POST created again after it had ended (must be 0)
     * @param recreatedJobs jobs created more than once
     * @param overlapping duplicates that began while an earlier callback of the job was still waiting for its answer,
     *     with no fault in between (must be 0: the lease covers the whole POST before it is sent)
     * @param outcomes accepted jobs by how their producer's last POST was answered: {@code CREATED}, {@code KEPT}, or
     *     {@code KEPT/ACKED} (and the like) for an id reserved by an ended job
     * @param failedTries POST tries that got no usable answer, by why (the producer retried them)
     * @param refusedPosts POSTs refused with a 4xx (must be 0)
     */
    public record Callbacks(
            long delivered,
            long slow,
            long retries,
            long recreated,
            long recreatedJobs,
            long overlapping,
            Map<String, Long> outcomes,
            Map<String, Long> failedTries,
            long refusedPosts) {

        /** Copies the maps. */
        public Callbacks {
            outcomes = Map.copyOf(outcomes);
            failedTries = Map.copyOf(failedTries);
        }

        boolean passed() {
            return recreated == 0 && overlapping == 0 && refusedPosts == 0;
        }
    }

    /**
     * @return whether the scenario passed: nothing early, no unexplained duplicate, nothing lost if zero-loss; with
     *     callbacks also nothing re-created, no overlapping callbacks and no refused POST
     */
    public boolean passed() {
        return early == 0
                && causes.unexplained() == 0
                && (!scenario.zeroLoss() || lost == 0)
                && (callbacks == null || callbacks.passed())
                && (tiers == null || tiers.passed());
    }

    /** @return the one-line report */
    public String line() {
        if (callbacks != null) {
            return callbackLine();
        }
        String faultList = faultList();
        String verdict = passed() ? (scenario.zeroLoss() ? "PASS" : "PASS (loss reported, not failed)") : "FAIL";
        return String.format(
                "%-24s accepted=%d delivered=%d lost=%d early=%d duplicates=%d"
                        + " (worker-fault %d, redis-fault %d, lease-expiry %d, unexplained %d) maxLateness=%dms"
                        + " p99=%dms"
                        + "%s%s faults=[%s] %ds %s",
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
                tiers == null ? "" : tierColumns(),
                faultList,
                durationMs / 1000,
                verdict);
    }

    private String tierColumns() {
        return String.format(
                " moved=%d (resent %d) maxFeederLag=%dms rescheduled=%d (found %d) cancelled=%d runAfterCancel=%d"
                        + " rescheduleRaces=%d setAside=%d",
                tiers.moved(),
                tiers.resent(),
                tiers.maxLagMs(),
                tiers.rescheduled(),
                tiers.rescheduledFound(),
                tiers.cancelled(),
                tiers.runAfterCancel(),
                tiers.rescheduleRaces(),
                tiers.setAside());
    }

    private String callbackLine() {
        String verdict = passed() ? "PASS" : "FAIL";
        return String.format(
                "%-24s accepted=%d completed=%d lost=%d early=%d callbacks=%d (slow %d) duplicates=%d"
                        + " (server-fault %d, redis-fault %d, retry-after-500 %d, re-created %d in %d jobs,"
                        + " overlapping %d, unexplained %d) maxLateness=%dms p99=%dms posts=[%s] failedTries=[%s]"
                        + " refused=%d faults=[%s] %ds %s",
                scenario.label(),
                accepted,
                delivered,
                lost,
                early,
                callbacks.delivered(),
                callbacks.slow(),
                duplicates,
                causes.workerFault(),
                causes.redisFault(),
                callbacks.retries(),
                callbacks.recreated(),
                callbacks.recreatedJobs(),
                callbacks.overlapping(),
                causes.unexplained(),
                maxLatenessMs,
                p99LatenessMs,
                counts(callbacks.outcomes()),
                counts(callbacks.failedTries()),
                callbacks.refusedPosts(),
                faultList(),
                durationMs / 1000,
                verdict);
    }

    private String faultList() {
        return faults.isEmpty()
                ? "none"
                : faults.entrySet().stream()
                        .map(e -> e.getKey().label() + " x" + e.getValue())
                        .collect(Collectors.joining(", "));
    }

    private static String counts(Map<String, Long> counts) {
        return new TreeMap<>(counts)
                .entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }
}
