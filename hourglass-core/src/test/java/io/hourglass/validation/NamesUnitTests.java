package io.hourglass.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class NamesUnitTests {

    @Test
    void newIdsAre72RandomBitsIn12CharactersThatCheckIdAcceptsAndNoneStartsWithADash() {
        assertRandomIds(Names::newId, Names.NEW_ID_BITS, 12);
    }

    @Test
    void uncheckedNewIdsAre128RandomBitsIn22Characters() {
        assertRandomIds(() -> Names.newId(Names.UNCHECKED_NEW_ID_BITS), Names.UNCHECKED_NEW_ID_BITS, 22);
    }

    @Test
    void aNewIdOfBitsThatAreNotWholeBytesIsRefusedNamingBits() {
        for (int bits : new int[] {0, 7, 71, 776}) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Names.newId(bits))
                    .withMessageStartingWith("bits:");
        }
    }

    private static void assertRandomIds(Supplier<String> newId, int bitCount, int length) {
        Set<String> ids = new HashSet<>();
        int[] ones = new int[bitCount];
        for (int i = 0; i < 20_000; i++) {
            String id = newId.get();
            assertThat(id).hasSize(length);
            assertThat(Names.checkId(id)).isEqualTo(id);
            assertThat(id).as("read as an option on a command line").doesNotStartWith("-");
            byte[] bits = Base64.getUrlDecoder().decode(id);
            for (int b = 0; b < bitCount; b++) {
                ones[b] += (bits[b / 8] >> (b % 8)) & 1;
            }
            ids.add(id);
        }
        assertThat(ids).hasSize(20_000);
        // Every bit is random: set in about half of the ids (a fixed bit, as a UUID's version bits, would be 0 or all).
        for (int b = 0; b < bitCount; b++) {
            assertThat(ones[b]).as("bit %d", b).isBetween(9_000, 11_000);
        }
    }
}
