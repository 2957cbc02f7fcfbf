package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.JobState;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RedisInspectorUnitTests {

    @Test
    void aPreviewIsTextWhenItIsUtf8EvenWithItsLastCharacterCut() {
        byte[] euro = "a€".getBytes(StandardCharsets.UTF_8); // '€' is three bytes
        assertThat(RedisInspector.previewText(euro, false)).isEqualTo("a€");
        byte[] cut = java.util.Arrays.copyOf(euro, 3);
        assertThat(RedisInspector.previewText(cut, true)).isEqualTo("a");
        assertThat(RedisInspector.previewText(cut, false))
                .as("not cut: a broken end is not text")
                .isNull();
        assertThat(RedisInspector.previewText(new byte[] {'a', (byte) 0xff, 'b'}, true))
                .isNull();
        assertThat(RedisInspector.previewText(new byte[0], false)).isEmpty();
    }

    @Test
    void aCursorCarriesStateScoreAndIdAndIsRefusedForAnotherState() {
        RedisInspector.Cursor cursor = new RedisInspector.Cursor(JobState.DEAD, 1_795_000_000_123L, "order:42");
        String text = cursor.encode();
        assertThat(text).matches("[A-Za-z0-9_-]+");
        assertThat(RedisInspector.Cursor.decode(text, JobState.DEAD)).isEqualTo(cursor);
        assertThatThrownBy(() -> RedisInspector.Cursor.decode(text, JobState.READY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cursor:");
        for (String bad : new String[] {"", "!!", "UkVBRFk", "UkVBRFk6eDp5"}) {
            assertThatThrownBy(() -> RedisInspector.Cursor.decode(bad, JobState.READY))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("cursor:");
        }
    }
}
