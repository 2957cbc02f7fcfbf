package io.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HistoryEventsOptionUnitTests {

    @Test
    void historyEventsAreOffByDefaultAndReachTheSettingsWhenOn() {
        assertThat(new HourglassSettings(Hourglass.builder()).historyStreamLength())
                .isZero();

        HourglassSettings on = new HourglassSettings(Hourglass.builder().historyEvents(50_000, 2048));
        assertThat(on.historyStreamLength()).isEqualTo(50_000);
        assertThat(on.historyPayloadLimitBytes()).isEqualTo(2048);
    }

    @Test
    void outOfRangeValuesAreRefusedNamingTheirFieldAndChangeNothing() {
        HourglassBuilder builder = Hourglass.builder().historyEvents(10, 1);

        assertThatThrownBy(() -> builder.historyEvents(-1, 0)).hasMessageStartingWith("historyStreamLength:");
        assertThatThrownBy(() -> builder.historyEvents(1_000_000_001L, 0))
                .hasMessageStartingWith("historyStreamLength:");
        assertThatThrownBy(() -> builder.historyEvents(10, -1)).hasMessageStartingWith("historyPayloadLimitBytes:");

        HourglassSettings settings = new HourglassSettings(builder);
        assertThat(settings.historyStreamLength()).isEqualTo(10);
        assertThat(settings.historyPayloadLimitBytes()).isEqualTo(1);
    }
}
