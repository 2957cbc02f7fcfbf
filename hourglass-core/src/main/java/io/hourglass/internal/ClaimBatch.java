package io.hourglass.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply of {@code claim.lua}: the server time; the next due time (-1 when no job is waiting for its due time,
 * or when more jobs are ready than the claim took: the claim that takes the last of them reports it); whether more
 * jobs are ready; the outcomes of the acks the claim carried (in the order sent); and the leased jobs.
 */
record ClaimBatch(long serverNowMs, long nextDueMs, boolean moreReady, List<String> ackOutcomes, List<Claimed> jobs) {

    /** One leased job: its record as stored, the receipt of this delivery and the lease deadline. */
    record Claimed(String id, JobRecord record, String receipt, long leaseUntilMs) {

        /** This delivery's attempt, from 1. */
        int attempt() {
            return record.attempt(true);
        }
    }

    static ClaimBatch parse(List<Object> reply) {
        int acks = ((Long) reply.get(3)).intValue();
        int first = 4 + acks;
        List<Claimed> jobs = new ArrayList<>((reply.size() - first) / 4);
        for (int i = first; i + 3 < reply.size(); i += 4) {
            String id = new String((byte[]) reply.get(i), StandardCharsets.UTF_8);
            String receipt = new String((byte[]) reply.get(i + 3), StandardCharsets.US_ASCII);
            jobs.add(new Claimed(id, JobRecord.decode((byte[]) reply.get(i + 1)), receipt, (Long) reply.get(i + 2)));
        }
        return new ClaimBatch(
                (Long) reply.get(0),
                (Long) reply.get(1),
                (Long) reply.get(2) != 0,
                HourglassClient.strings(reply.subList(4, first)),
                jobs);
    }
}
