package io.hourglass.chaos;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the history of a scenario with servers and HTTP callbacks ({@link Scenario#servers()}) offline: every accepted
 * job's callback answered 2xx at least once, none before its due time, and each callback beyond a job's first
 * classified by what happened between it and the callbacks before it:
 *
 * <ul>
 *   <li><b>re-created</b> (a defect): it carries another creator try than the job's first callback, so a later POST
 *       created the job again after it had ended;
 *   <li><b>retry after 500</b>: the callback before it was answered 500 and none is in flight, so the job was retried
 *       as asked;
 *   <li><b>Redis fault</b>, <b>server fault</b>: Redis, or a server, was killed or paused between the earlier callback
 *       (less one lease) and this one, which swallows an ack or outlives a lease;
 *   <li><b>overlapping</b> (a defect): an earlier callback of the job was still waiting for its answer when this one
 *       began, with no fault in between; the lease must hold while a callback runs;
 *   <li>anything else is <b>unexplained</b> (a defect).
 * </ul>
 */
final class CallbackHistoryChecker {
    private static final int SERVER = 0;
    private static final int REDIS = 1;
    private static final int UNEXPLAINED = 3;
    private static final int RETRY = 4;
    private static final int RECREATED = 5;
    private static final int OVERLAPPING = 6;

    private final Scenario scenario;
    private final long leaseMs;

    CallbackHistoryChecker(Scenario scenario, long leaseMs) {
        this.scenario = scenario;
        this.leaseMs = leaseMs;
    }

    ScenarioResult check(History history, long durationMs) {
        long completed = 0;
        long lost = 0;
        long early = 0;
        long[] lateness = new long[history.accepted.size()];
        int latenessCount = 0;
        for (Acceptance job : history.accepted.values()) {
            List<CallbackRecord> callbacks = history.callbacks.get(History.key(job.topic(), job.id()));
            if (callbacks == null || callbacks.stream().noneMatch(CallbackRecord::succeeded)) {
                lost++;
                continue;
            }
            completed++;
            lateness[latenessCount++] = callbacks.get(0).startMs() - job.dueMs();
            for (CallbackRecord c : callbacks) {
                if (c.startMs() < job.dueMs() || job.reportedDueMs() < job.dueMs()) {
                    early++;
                }
            }
        }
        long delivered = 0;
        long slow = 0;
        long duplicates = 0;
        long unaccepted = 0;
        long recreatedJobs = 0;
        long[] causes = new long[7];
        for (Map.Entry<String, List<CallbackRecord>> entry : history.callbacks.entrySet()) {
            List<CallbackRecord> callbacks = entry.getValue();
            delivered += callbacks.size();
            slow += callbacks.stream()
                    .filter(c -> c.succeeded() && c.endMs() - c.startMs() > leaseMs)
                    .count();
            if (!history.accepted.containsKey(entry.getKey())) {
                unaccepted += callbacks.size();
            }
            if (callbacks.stream()
                            .mapToInt(CallbackRecord::creatorTry)
                            .distinct()
                            .count()
                    > 1) {
                recreatedJobs++;
            }
            for (int i = 1; i < callbacks.size(); i++) {
                duplicates++;
                causes[explain(callbacks.subList(0, i), callbacks.get(i), history.faults)]++;
            }
        }
        long[] sorted = HistoryChecker.sorted(lateness, latenessCount);
        Map<String, Long> outcomes = new HashMap<>();
        history.outcomes.values().forEach(outcome -> outcomes.merge(outcome, 1L, Long::sum));
        return new ScenarioResult(
                scenario,
                history.accepted.size(),
                completed,
                lost,
                early,
                duplicates,
                new ScenarioResult.DuplicateCauses(causes[SERVER], causes[REDIS], 0, causes[UNEXPLAINED]),
                HistoryChecker.max(sorted),
                HistoryChecker.p99(sorted),
                HistoryChecker.countFaults(history.faults),
                0,
                unaccepted,
                durationMs,
                new ScenarioResult.Callbacks(
                        delivered,
                        slow,
                        causes[RETRY],
                        causes[RECREATED],
                        recreatedJobs,
                        causes[OVERLAPPING],
                        outcomes,
                        history.failedTries,
                        history.refusedPosts),
                null);
    }

    private int explain(List<CallbackRecord> earlier, CallbackRecord current, List<Fault> faults) {
        if (current.creatorTry() != earlier.get(0).creatorTry()) {
            return RECREATED;
        }
        CallbackRecord inFlight = earlier.stream()
                .filter(c -> c.endMs() > current.startMs())
                .findFirst()
                .orElse(null);
        CallbackRecord before = inFlight != null ? inFlight : earlier.get(earlier.size() - 1);
        if (inFlight == null && !before.succeeded() && current.attempt() > before.attempt()) {
            return RETRY;
        }
        long from = before.startMs() - leaseMs;
        long to = current.startMs();
        for (Fault fault : faults) {
            if (fault.kind().redisLevel() && fault.overlaps(from, to)) {
                return REDIS;
            }
        }
        for (Fault fault : faults) {
            if (!fault.kind().redisLevel() && fault.overlaps(from, to)) {
                return SERVER;
            }
        }
        return inFlight != null ? OVERLAPPING : UNEXPLAINED;
    }
}
