package io.hourglass.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NamesUnitTests {

    @Test
    void newIdsAre128RandomBitsIn22CharactersThatCheckIdAcceptsAndNoneStartsWithADash() {
        Set<String> ids = new HashSet<>();
        int[] ones = new int[128];
        for (int i = 0; i < 20_000; i++) {
            String id = Names.newId();
            assertThat(id).hasSize(22);
            assertThat(Names.checkId(id)).isEqualTo(id);
            assertThat(id).as("read as an option on a command line").doesNotStartWith("-");
            byte[] bits = Base64.getUrlDecoder().decode(id);
            for (int b = 0; b < 128; b++) {
                ones[b] += (bits[b / 8] >> (b % 8)) & 1;
            }
            ids.add(id);
        }
        assertThat(ids).hasSize(20_000);
        // Every bit is random: set in about half of the ids (a fixed bit, as a UUID's version bits, would be 0 or all).
        for (int b = 0; b < 128; b++) {
            assertThat(ones[b]).as("bit %d", b).isBetween(9_000, 11_000);
        }
    }
}
