package io.hourglass.chaos;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a scenario's history offline: every accepted job delivered, none before its due time, and each duplicate
 * explained by a fault or a lease expiry between it and the delivery before it.
 */
final class HistoryChecker {
    /** Handlers start a little after their claim, so a redelivery may follow a handler start by a bit less. */
    private static final long LEASE_SLACK_MS = 500;

    private final Scenario scenario;
    private final long leaseMs;

    HistoryChecker(Scenario scenario, long leaseMs) {
        this.scenario = scenario;
        this.leaseMs = leaseMs;
    }

    ScenarioResult check(History history, long durationMs) {
        long delivered = 0;
        long lost = 0;
        long early = 0;
        long lossWindow = 0;
        long[] lateness = new long[history.accepted.size()];
        int latenessCount = 0;
        for (Acceptance job : history.accepted.values()) {
            List<DeliveryRecord> deliveries = history.deliveries.get(History.key(job.topic(), job.id()));
            if (deliveries == null) {
                lost++;
                lossWindow = Math.max(lossWindow, lossWindow(job, history.faults));
                continue;
            }
            delivered++;
            lateness[latenessCount++] = deliveries.get(0).wallMs() - job.dueMs();
            for (DeliveryRecord d : deliveries) {
                if (d.wallMs() < job.dueMs() || job.reportedDueMs() < job.dueMs()) {
                    early++;
                }
            }
        }
        long duplicates = 0;
        long unaccepted = 0;
        long[] causes = new long[4];
        for (Map.Entry<String, List<DeliveryRecord>> entry : history.deliveries.entrySet()) {
            List<DeliveryRecord> deliveries = entry.getValue();
            if (!history.accepted.containsKey(entry.getKey())) {
                unaccepted += deliveries.size();
            }
            for (int i = 1; i < deliveries.size(); i++) {
                duplicates++;
                causes[explain(deliveries.get(i - 1), deliveries.get(i), history.faults)]++;
            }
        }
        long[] sorted = sorted(lateness, latenessCount);
        long max = max(sorted);
        long p99 = p99(sorted);
        return new ScenarioResult(
                scenario,
                history.accepted.size(),
                delivered,
                lost,
                early,
                duplicates,
                new ScenarioResult.DuplicateCauses(causes[0], causes[1], causes[2], causes[3]),
                max,
                p99,
                countFaults(history.faults),
                lossWindow,
                unaccepted,
                durationMs,
                null,
                null);
    }

    /** @return the first {@code count} values, sorted */
    static long[] sorted(long[] values, int count) {
        long[] sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
        return sorted;
    }

    /** @return the largest of sorted values, 0 for none */
    static long max(long[] sorted) {
        return sorted.length == 0 ? 0 : sorted[sorted.length - 1];
    }

    /** @return the 99th percentile of sorted values, 0 for none */
    static long p99(long[] sorted) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
    }

    /** @return 0 worker fault, 1 Redis fault, 2 lease expiry, 3 unexplained */
    int explain(DeliveryRecord previous, DeliveryRecord current, List<Fault> faults) {
        long from = previous.wallMs() - leaseMs;
        long to = current.wallMs();
        for (Fault fault : faults) {
            if (fault.kind().redisLevel() && fault.overlaps(from, to)) {
                return 1;
            }
        }
        for (Fault fault : faults) {
            boolean sameWorker = fault.pid() == previous.pid() || fault.pid() == current.pid();
            if (!fault.kind().redisLevel() && sameWorker && fault.overlaps(from, to)) {
                return 0;
            }
        }
        if (current.attempt() > previous.attempt() && to - previous.wallMs() >= leaseMs - LEASE_SLACK_MS) {
            return 2;
        }
        return 3;
    }

    /** The time from the job's acceptance to the first Redis fault after it (the one that lost it). */
    private static long lossWindow(Acceptance job, List<Fault> faults) {
        for (Fault fault : faults) {
            if (fault.kind().redisLevel() && fault.startMs() >= job.acceptedMs()) {
                return fault.startMs() - job.acceptedMs();
            }
        }
        return 0;
    }

    static Map<FaultKind, Long> countFaults(List<Fault> faults) {
        Map<FaultKind, Long> counts = new EnumMap<>(FaultKind.class);
        for (Fault fault : faults) {
            counts.merge(fault.kind(), 1L, Long::sum);
        }
        return counts;
    }
}
