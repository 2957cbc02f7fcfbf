package io.hourglass.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The reply of {@code claim.lua}: the server time, the next due time, how many remain ready, the leased jobs. */
record ClaimBatch(long serverNowMs, long nextDueMs, long readyLeft, List<Claimed> jobs) {

  /** One leased job. */
  record Claimed(String id, JobRecord record, long leaseUntilMs) {}

  static ClaimBatch parse(List<Object> reply) {
    List<Claimed> jobs = new ArrayList<>((reply.size() - 3) / 3);
    for (int i = 3; i + 2 < reply.size(); i += 3) {
      jobs.add(new Claimed(new String((byte[]) reply.get(i), StandardCharsets.UTF_8),
          JobRecord.decode((byte[]) reply.get(i + 1)), (Long) reply.get(i + 2)));
    }
    return new ClaimBatch((Long) reply.get(0), (Long) reply.get(1), (Long) reply.get(2), jobs);
  }
}
