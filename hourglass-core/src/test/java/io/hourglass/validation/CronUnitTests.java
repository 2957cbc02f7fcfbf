package io.hourglass.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class CronUnitTests {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void fiveFieldsAreUnixCronWithMinutePrecision() {
        Cron cron = Cron.parse("30 3 * * *", ZoneOffset.UTC);
        assertThat(cron.next(Instant.parse("2026-11-26T03:29:59.500Z"))).isEqualTo("2026-11-26T03:30:00Z");
        assertThat(cron.next(Instant.parse("2026-11-26T03:30:00Z"))).isEqualTo("2026-11-27T03:30:00Z");
        assertThat(cron.previous(Instant.parse("2026-11-26T03:30:00.001Z"))).isEqualTo("2026-11-26T03:30:00Z");
        assertThat(cron.previous(Instant.parse("2026-11-26T03:30:00Z"))).isEqualTo("2026-11-25T03:30:00Z");
    }

    @Test
    void sixFieldsPutSecondsFirst() {
        Cron cron = Cron.parse("*/10  * * * * *", ZoneOffset.UTC);
        assertThat(cron.expression()).isEqualTo("*/10 * * * * *");
        assertThat(cron.next(Instant.parse("2026-11-26T10:00:05Z"))).isEqualTo("2026-11-26T10:00:10Z");
        assertThat(Cron.parse("* * * * * *", ZoneOffset.UTC).next(Instant.parse("2026-11-26T10:00:05.999Z")))
                .isEqualTo("2026-11-26T10:00:06Z");
        assertThat(Cron.parse("* * * * * *", ZoneOffset.UTC).previous(Instant.parse("2026-11-26T10:00:06.001Z")))
                .isEqualTo("2026-11-26T10:00:06Z");
        assertThat(Cron.parse("* * * * * *", ZoneOffset.UTC).previous(Instant.parse("2026-11-26T10:00:06Z")))
                .isEqualTo("2026-11-26T10:00:05Z");
    }

    @Test
    void theFieldsAreReadInTheZone() {
        Cron cron = Cron.parse("0 9 * * *", BERLIN);
        assertThat(cron.next(Instant.parse("2026-11-26T00:00:00Z"))).isEqualTo("2026-11-26T08:00:00Z");
        assertThat(cron.next(Instant.parse("2026-07-01T00:00:00Z"))).isEqualTo("2026-07-01T07:00:00Z");
    }

    @Test
    void aTimeInsideASpringForwardGapDoesNotFireThatDay() {
        // 2026-03-29 in Berlin: 02:00 jumps to 03:00, so 02:30 does not exist that day.
        Cron cron = Cron.parse("30 2 * * *", BERLIN);
        Instant next = cron.next(Instant.parse("2026-03-28T12:00:00Z"));
        assertThat(next.atZone(BERLIN).toLocalDate().toString()).isNotEqualTo("2026-03-29");
        assertThat(next.atZone(BERLIN).toLocalTime().toString()).isEqualTo("02:30");
    }

    @Test
    void aTimeThatAFallBackOverlapRepeatsFiresOnce() {
        // 2026-10-25 in Berlin: 03:00 goes back to 02:00, so 02:30 happens twice.
        Cron cron = Cron.parse("30 2 * * *", BERLIN);
        Instant first = cron.next(Instant.parse("2026-10-24T12:00:00Z"));
        assertThat(first)
                .isEqualTo(ZonedDateTime.of(2026, 10, 25, 2, 30, 0, 0, BERLIN)
                        .withEarlierOffsetAtOverlap()
                        .toInstant());
        Instant second = cron.next(first);
        assertThat(second.atZone(BERLIN).toLocalDate().toString()).isEqualTo("2026-10-26");
    }

    @Test
    void everyFewMinutesFollowsTheInstantsAcrossATransition() {
        Cron cron = Cron.parse("0 */30 * * * *", BERLIN);
        Instant t = Instant.parse("2026-10-24T23:45:00Z");
        for (int i = 0; i < 8; i++) {
            Instant next = cron.next(t);
            assertThat(next).as("tick %d after %s", i, t).isEqualTo(t.plusSeconds(i == 0 ? 15 * 60 : 30 * 60));
            t = next;
        }
    }

    @Test
    void badExpressionsAndZonesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> Cron.parse("* * *", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cron: must have 5 fields");
        assertThatThrownBy(() -> Cron.parse("61 * * * *", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cron: '61 * * * *' is not valid");
        assertThatThrownBy(() -> Cron.parse("* * * * |", ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cron: must be 1 to 200 characters");
        assertThatThrownBy(() -> Cron.parse(null, ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cron:");
        assertThatThrownBy(() -> Cron.zone("Mars/Olympus"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("zone: not a time zone id: 'Mars/Olympus'");
    }
}
