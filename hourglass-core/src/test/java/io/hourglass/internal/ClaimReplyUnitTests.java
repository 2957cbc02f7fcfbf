package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LeaseScripts#claimed} reads the reply of {@code claim.lua} as its header describes it. */
class ClaimReplyUnitTests {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aClaimThatReapedNothingHasNoDeadJobs() {
        ClaimBatch batch = LeaseScripts.claimed(List.of(1_000L, 1_500L, 0L, 0L, 0L, 0L));
        assertThat(batch.serverNowMs()).isEqualTo(1_000L);
        assertThat(batch.nextDueMs()).isEqualTo(1_500L);
        assertThat(batch.moreReady()).isFalse();
        assertThat(batch.ackOutcomes()).isEmpty();
        assertThat(batch.dead()).isEmpty();
        assertThat(batch.jobs()).isEmpty();
        assertThat(batch.deadLettersTrimmed()).isZero();
    }

    @Test
    void theReapedDeathsFollowTheAckOutcomesAndTheTrimmedCountFollowsThem() {
        ClaimBatch batch = LeaseScripts.claimed(List.of(
                1_000L,
                -1L,
                1L,
                2L,
                b("OK"),
                b("STALE"),
                2L,
                b("job-1"),
                b("lease expired on attempt 1"),
                b("job-2"),
                b("lease expired on attempt 3"),
                3L));
        assertThat(batch.moreReady()).isTrue();
        assertThat(batch.ackOutcomes()).containsExactly("OK", "STALE");
        assertThat(batch.dead())
                .containsExactly(
                        new ClaimBatch.Reaped("job-1", "lease expired on attempt 1"),
                        new ClaimBatch.Reaped("job-2", "lease expired on attempt 3"));
        assertThat(batch.jobs()).isEmpty();
        assertThat(batch.deadLettersTrimmed()).isEqualTo(3);
    }

    @Test
    void aClaimHeldBackByTheConcurrencyCapSaysSoAndIsNotMoreReady() {
        ClaimBatch batch = LeaseScripts.claimed(List.of(1_000L, -1L, 2L, 0L, 0L, 0L));
        assertThat(batch.capped()).isTrue();
        assertThat(batch.moreReady()).isFalse();
        assertThat(LeaseScripts.claimed(List.of(1_000L, -1L, 1L, 0L, 0L, 0L)).capped())
                .isFalse();
    }
}
