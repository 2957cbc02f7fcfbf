package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HandlerSlotsUnitTests {

    @ParameterizedTest(name = "{0} slots, batches of {1}, {2} master(s): {3}")
    @CsvSource({
        // One Redis: half the slots, at most a batch, at least one.
        "16, 64, 1, 8",
        "128, 64, 1, 64",
        "256, 64, 1, 64",
        "4, 64, 1, 2",
        "1, 64, 1, 1",
        // Several masters: half the slots shared by them, but no fewer than 8 (or half, when that is fewer).
        "128, 64, 3, 21",
        "128, 64, 6, 10",
        "32, 64, 3, 8",
        "32, 64, 6, 8",
        "16, 64, 3, 8",
        "4, 64, 3, 2",
        "1024, 16, 3, 16"
    })
    void aClaimBesideAnotherWaitsForHalfTheSlotsSharedByTheMasters(
            int concurrency, int maxBatch, int masters, int expected) {
        assertThat(HandlerSlots.besideAClaim(concurrency, maxBatch, masters)).isEqualTo(expected);
    }

    @Test
    void aClaimBesideAnotherGoesOnceItsShareOfSlotsIsFree() {
        HandlerSlots threeMasters = new HandlerSlots(32, 64, 3);
        HandlerSlots oneRedis = new HandlerSlots(32, 64, 1);
        for (HandlerSlots slots : new HandlerSlots[] {threeMasters, oneRedis}) {
            assertThat(slots.take(40)).isEqualTo(32);
            slots.release(7);
            assertThat(slots.enoughBesideAClaim()).isFalse();
            slots.release(1);
        }
        assertThat(threeMasters.enoughBesideAClaim()).isTrue();
        assertThat(oneRedis.enoughBesideAClaim()).isFalse();
        oneRedis.release(8);
        assertThat(oneRedis.enoughBesideAClaim()).isTrue();
    }
}
