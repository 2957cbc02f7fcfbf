package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScriptUnitTests {

    @Test
    void everyScriptIncludesTheCommonFragmentOnceAndNoIncludeLineRemains() {
        for (Script s : Script.values()) {
            String source = new String(s.source(), StandardCharsets.UTF_8);
            assertThat(source).as(s.fileName()).doesNotContain("-- @include");
            assertThat(source.split("local function decode_job", -1))
                    .as(s.fileName())
                    .hasSize(2);
            assertThat(s.sha()).hasSize(40);
        }
    }
}
