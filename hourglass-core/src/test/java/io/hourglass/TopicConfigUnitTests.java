package io.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TopicConfigUnitTests {

    @Test
    void unlimitedLimitsNothingAndTheWithersChangeOneLimitEach() {
        assertThat(TopicConfig.UNLIMITED.limitsRate()).isFalse();
        assertThat(TopicConfig.UNLIMITED.capsConcurrency()).isFalse();
        TopicConfig c = TopicConfig.UNLIMITED.withRateLimit(2.5, 10).withMaxConcurrency(4);
        assertThat(c).isEqualTo(new TopicConfig(2.5, 10, 4));
        assertThat(c.limitsRate()).isTrue();
        assertThat(c.capsConcurrency()).isTrue();
        assertThat(c.withRateLimit(0, 0)).isEqualTo(new TopicConfig(0, 0, 4));
    }

    @Test
    void badValuesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> new TopicConfig(-1, 0, 0)).hasMessageStartingWith("ratePerSecond:");
        assertThatThrownBy(() -> new TopicConfig(Double.NaN, 0, 0)).hasMessageStartingWith("ratePerSecond:");
        assertThatThrownBy(() -> new TopicConfig(Double.POSITIVE_INFINITY, 0, 0))
                .hasMessageStartingWith("ratePerSecond:");
        assertThatThrownBy(() -> new TopicConfig(1, -1, 0)).hasMessageStartingWith("burst:");
        assertThatThrownBy(() -> new TopicConfig(0, 5, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("burst:");
        assertThatThrownBy(() -> new TopicConfig(0, 0, -2)).hasMessageStartingWith("maxConcurrency:");
        assertThatThrownBy(() -> new TopicConfig(0, 0, TopicConfig.MAX_LIMIT + 1))
                .hasMessageStartingWith("maxConcurrency:");
    }
}
