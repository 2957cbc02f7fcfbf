package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Schedule.MisfirePolicy;
import io.hourglass.validation.Cron;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Which ticks a pass fires, from the baseline (latest fired tick or last change) and Redis's time. */
class ScheduleTickerUnitTests {
    private static final Cron EVERY_SECOND = Cron.parse("* * * * * *", ZoneOffset.UTC);
    private static final Cron DAILY = Cron.parse("0 0 3 * * *", ZoneOffset.UTC);

    private static long ms(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void everyTickAfterTheBaselineUpToNowIsDueOnce() {
        assertThat(ScheduleTicker.dueTicks(
                        EVERY_SECOND, MisfirePolicy.FIRE_ONCE, ms("2026-11-26T10:00:00Z"), ms("2026-11-26T10:00:03Z")))
                .containsExactly(
                        Instant.parse("2026-11-26T10:00:01Z"),
                        Instant.parse("2026-11-26T10:00:02Z"),
                        Instant.parse("2026-11-26T10:00:03Z"));
        assertThat(ScheduleTicker.dueTicks(
                        EVERY_SECOND, MisfirePolicy.SKIP, ms("2026-11-26T10:00:03Z"), ms("2026-11-26T10:00:03.999Z")))
                .isEmpty();
    }

    @Test
    void ticksMissedByMoreThanTheThresholdFireOnceAsTheLatestOfThem() {
        long baseline = ms("2026-11-20T03:00:00Z");
        long now = ms("2026-11-26T09:00:00Z");
        assertThat(ScheduleTicker.dueTicks(DAILY, MisfirePolicy.FIRE_ONCE, baseline, now))
                .containsExactly(Instant.parse("2026-11-26T03:00:00Z"));
        assertThat(ScheduleTicker.dueTicks(DAILY, MisfirePolicy.SKIP, baseline, now))
                .isEmpty();
    }

    @Test
    void aTickWithinTheThresholdIsOnTimeUnderEitherPolicy() {
        long baseline = ms("2026-11-25T03:00:00Z");
        long now = ms("2026-11-26T03:00:59Z");
        assertThat(ScheduleTicker.dueTicks(DAILY, MisfirePolicy.SKIP, baseline, now))
                .containsExactly(Instant.parse("2026-11-26T03:00:00Z"));
        assertThat(ScheduleTicker.dueTicks(DAILY, MisfirePolicy.FIRE_ONCE, baseline, now))
                .containsExactly(Instant.parse("2026-11-26T03:00:00Z"));
    }

    @Test
    void afterDowntimeOnlyTheLastMinuteOfAFrequentScheduleCatchesUp() {
        long baseline = ms("2026-11-26T09:00:00Z");
        long now = ms("2026-11-26T10:00:00Z");
        assertThat(ScheduleTicker.dueTicks(EVERY_SECOND, MisfirePolicy.SKIP, baseline, now))
                .hasSize(60)
                .startsWith(Instant.parse("2026-11-26T09:59:01Z"))
                .endsWith(Instant.parse("2026-11-26T10:00:00Z"));
        assertThat(ScheduleTicker.dueTicks(EVERY_SECOND, MisfirePolicy.FIRE_ONCE, baseline, now))
                .hasSize(61)
                .startsWith(Instant.parse("2026-11-26T09:59:00Z"), Instant.parse("2026-11-26T09:59:01Z"));
    }
}
