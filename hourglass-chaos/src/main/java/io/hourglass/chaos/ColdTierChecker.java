package io.hourglass.chaos;

import java.util.List;
import java.util.Map;

/**
 * Checks the cold-tier scenario's history offline. Every accepted job that no cancel returned for is delivered; no
 * delivery begins before the due time in force: the scheduled one before a reschedule began, the earlier of the old and
 * the new one while it ran (or when it did not find the job, since an earlier try may have moved it), the new one after
 * it returned; no delivery begins after a cancel of its job returned. A duplicate is explained by a Redis fault, a
 * worker fault or a lease expiry as in {@link HistoryChecker} (also a later attempt that began after the lease deadline
 * the earlier one recorded), or by a reschedule that took the job back from its worker or out of Redis while a worker
 * ran it (both documented); a feeder's or PostgreSQL's crash explains none, since every move is reject-on-conflict.
 */
final class ColdTierChecker {
    private final Scenario scenario;
    private final long leaseMs;
    private final HistoryChecker causes;

    ColdTierChecker(Scenario scenario, long leaseMs) {
        this.scenario = scenario;
        this.leaseMs = leaseMs;
        this.causes = new HistoryChecker(scenario, leaseMs);
    }

    ScenarioResult check(History history, long durationMs) {
        long delivered = 0;
        long lost = 0;
        long early = 0;
        long runAfterCancel = 0;
        long[] lateness = new long[history.accepted.size()];
        int latenessCount = 0;
        for (Acceptance job : history.accepted.values()) {
            String key = History.key(job.topic(), job.id());
            List<DeliveryRecord> deliveries = history.deliveries.getOrDefault(key, List.of());
            TierOperation reschedule = history.reschedules.get(key);
            TierOperation cancel = history.cancels.get(key);
            for (DeliveryRecord d : deliveries) {
                if (d.wallMs() < dueAt(job, reschedule, d.wallMs())) {
                    early++;
                }
                if (cancel != null && d.wallMs() > cancel.endMs()) {
                    runAfterCancel++;
                }
            }
            if (deliveries.isEmpty()) {
                if (cancel == null) {
                    lost++;
                }
                continue;
            }
            delivered++;
            if (job.reportedDueMs() < job.dueMs()) {
                early++;
            }
            if (cancel == null) {
                long first = deliveries.get(0).wallMs();
                lateness[latenessCount++] = first - dueAt(job, reschedule, first);
            }
        }
        long duplicates = 0;
        long unaccepted = 0;
        long races = 0;
        long[] counts = new long[4];
        for (Map.Entry<String, List<DeliveryRecord>> entry : history.deliveries.entrySet()) {
            List<DeliveryRecord> deliveries = entry.getValue();
            if (!history.accepted.containsKey(entry.getKey())) {
                unaccepted += deliveries.size();
            }
            TierOperation reschedule = history.reschedules.get(entry.getKey());
            for (int i = 1; i < deliveries.size(); i++) {
                duplicates++;
                DeliveryRecord previous = deliveries.get(i - 1);
                DeliveryRecord current = deliveries.get(i);
                int cause = causes.explain(previous, current, history.faults);
                if (cause == 3 && leaseRanOut(previous, current)) {
                    cause = 2;
                }
                if (cause == 3 && rescheduledWhileRunning(reschedule, previous, current)) {
                    races++;
                } else {
                    counts[cause]++;
                }
            }
        }
        long moved = 0;
        long resent = 0;
        long maxLag = 0;
        for (long[] feeder : history.feeders.values()) {
            moved += feeder[0];
            resent += feeder[1];
            maxLag = Math.max(maxLag, feeder[2]);
        }
        long rescheduledFound = history.reschedules.values().stream()
                .filter(TierOperation::found)
                .count();
        long[] sorted = HistoryChecker.sorted(lateness, latenessCount);
        return new ScenarioResult(
                scenario,
                history.accepted.size(),
                delivered,
                lost,
                early,
                duplicates,
                new ScenarioResult.DuplicateCauses(counts[0], counts[1], counts[2], counts[3]),
                HistoryChecker.max(sorted),
                HistoryChecker.p99(sorted),
                HistoryChecker.countFaults(history.faults),
                0,
                unaccepted,
                durationMs,
                null,
                new ScenarioResult.Tiers(
                        moved,
                        resent,
                        maxLag,
                        history.reschedules.size(),
                        rescheduledFound,
                        history.cancels.size(),
                        runAfterCancel,
                        races,
                        history.setAside));
    }

    /** @return the earliest instant, in ms, the job may be delivered at {@code wallMs} */
    static long dueAt(Acceptance job, TierOperation reschedule, long wallMs) {
        if (reschedule == null || wallMs < reschedule.startMs()) {
            return job.dueMs();
        }
        if (wallMs <= reschedule.endMs() || !reschedule.found()) {
            return Math.min(job.dueMs(), reschedule.newDueMs());
        }
        return reschedule.newDueMs();
    }

    /**
     * Whether the later delivery is a later attempt that began after the earlier one's lease deadline (recorded by the
     * worker as {@code lease@<ms>} in the receipt field): a lease expiry, however late the earlier handler began. On a
     * starved machine a worker's handler can begin more than a lease after its claim.
     */
    static boolean leaseRanOut(DeliveryRecord previous, DeliveryRecord current) {
        long deadline = leaseDeadline(previous);
        return deadline >= 0 && current.attempt() > previous.attempt() && current.wallMs() >= deadline;
    }

    /** @return the lease deadline the worker recorded ({@code lease@<ms>} in the receipt field), or -1 */
    private static long leaseDeadline(DeliveryRecord delivery) {
        int at = delivery.receipt().lastIndexOf("lease@");
        if (at < 0) {
            return -1;
        }
        try {
            return Long.parseLong(delivery.receipt().substring(at + "lease@".length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The documented ways a reschedule runs a job again: it takes an {@code ACTIVE} job back from its worker
     * ({@code Hourglass.reschedule}); and one beyond the horizon reads a job in Redis, stores it in PostgreSQL and
     * takes it out of Redis, so a worker that ran it meanwhile does not stop the cold copy from running at its new due
     * time (README, "Tiered storage"). The earlier delivery's claim (its lease deadline less the lease, where recorded)
     * came before the reschedule returned and less than a lease before it began; the later one began at the new due
     * time or after.
     */
    private boolean rescheduledWhileRunning(TierOperation reschedule, DeliveryRecord previous, DeliveryRecord current) {
        long deadline = leaseDeadline(previous);
        long claimedMs = deadline >= 0 ? Math.min(previous.wallMs(), deadline - leaseMs) : previous.wallMs();
        return reschedule != null
                && claimedMs <= reschedule.endMs()
                && claimedMs + leaseMs >= reschedule.startMs()
                && current.wallMs() >= reschedule.newDueMs();
    }
}
