package io.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffUnitTests {

    @Test
    void theDefaultIsTheYouzanSteppedScheduleAndItsLastStepRepeats() {
        List<Long> expectedSeconds = List.of(15L, 180L, 600L, 1800L, 1800L, 3600L, 7200L, 21600L, 54000L, 54000L);
        for (int attempt = 1; attempt <= expectedSeconds.size(); attempt++) {
            assertThat(Backoff.DEFAULT.delayAfter(attempt).toSeconds()).isEqualTo(expectedSeconds.get(attempt - 1));
        }
    }

    @Test
    void fixedWaitsTheSameEveryTime() {
        Backoff fixed = Backoff.fixed(Duration.ofMillis(250));
        assertThat(fixed.delayAfter(1)).isEqualTo(Duration.ofMillis(250));
        assertThat(fixed.delayAfter(50)).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void exponentialDoublesUpToItsCapAndJitterOnlyShortens() {
        Backoff noJitter = Backoff.exponential(Duration.ofMillis(100), Duration.ofSeconds(1), 0);
        assertThat(noJitter.delayAfter(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(noJitter.delayAfter(3)).isEqualTo(Duration.ofMillis(400));
        assertThat(noJitter.delayAfter(10)).isEqualTo(Duration.ofSeconds(1));
        assertThat(noJitter.delayAfter(5000)).isEqualTo(Duration.ofSeconds(1));

        Backoff jittered = Backoff.exponential(Duration.ofMillis(100), Duration.ofSeconds(1), 0.5);
        for (int i = 0; i < 200; i++) {
            assertThat(jittered.delayAfter(3).toMillis()).isBetween(200L, 400L);
        }
    }

    @Test
    void specRoundTripsEveryShape() {
        for (Backoff b : List.of(
                Backoff.DEFAULT,
                Backoff.fixed(Duration.ofSeconds(5)),
                Backoff.stepped(Duration.ofMillis(1), Duration.ofMillis(2)),
                Backoff.exponential(Duration.ofSeconds(1), Duration.ofMinutes(1), 0.25))) {
            assertThat(Backoff.parse(b.spec())).isEqualTo(b);
        }
        assertThat(Backoff.parse("")).isEqualTo(Backoff.DEFAULT);
    }

    @Test
    void badShapesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> Backoff.stepped()).hasMessageStartingWith("backoff:");
        assertThatThrownBy(() -> Backoff.fixed(Duration.ofMillis(-1))).hasMessageStartingWith("backoff:");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(2), Duration.ofSeconds(1), 0))
                .hasMessageStartingWith("backoff:");
        assertThatThrownBy(() -> Backoff.exponential(Duration.ofSeconds(1), Duration.ofSeconds(2), 1.5))
                .hasMessageStartingWith("backoff:");
        assertThatThrownBy(() -> Backoff.parse("steps:1,x")).hasMessageStartingWith("backoff:");
        assertThatThrownBy(() -> Backoff.parse("linear:5")).hasMessageStartingWith("backoff:");
    }
}
