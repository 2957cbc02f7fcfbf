package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.JobState;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JobListingUnitTests {

    @Test
    void aPreviewIsTextWhenItIsUtf8EvenWithItsLastCharacterCut() {
        byte[] euro = "a€".getBytes(StandardCharsets.UTF_8); // '€' is three bytes
        assertThat(JobListing.previewText(euro, false)).isEqualTo("a€");
        byte[] cut = java.util.Arrays.copyOf(euro, 3);
        assertThat(JobListing.previewText(cut, true)).isEqualTo("a");
        assertThat(JobListing.previewText(cut, false))
                .as("not cut: a broken end is not text")
                .isNull();
        assertThat(JobListing.previewText(new byte[] {'a', (byte) 0xff, 'b'}, true))
                .isNull();
        assertThat(JobListing.previewText(new byte[0], false)).isEmpty();
    }

    @Test
    void aCursorCarriesStateScoreAndIdAndIsRefusedForAnotherState() {
        JobListing.Cursor cursor = new JobListing.Cursor(JobState.DEAD, 1_795_000_000_123L, "order:42");
        String text = cursor.encode();
        assertThat(text).matches("[A-Za-z0-9_-]+");
        assertThat(JobListing.Cursor.decode(text, JobState.DEAD)).isEqualTo(cursor);
        assertThatThrownBy(() -> JobListing.Cursor.decode(text, JobState.READY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cursor:");
        for (String bad : new String[] {"", "!!", "UkVBRFk", "UkVBRFk6eDp5"}) {
            assertThatThrownBy(() -> JobListing.Cursor.decode(bad, JobState.READY))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("cursor:");
        }
    }
}
