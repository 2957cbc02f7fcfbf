package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.Schedule;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The stored form of a schedule's definition, as {@code schedules.lua} keeps it behind its update time. */
class ScheduleStoreUnitTests {

    private static byte[] stored(long updatedAtMs, byte[] definition) {
        byte[] prefix = (updatedAtMs + "|").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[prefix.length + definition.length];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(definition, 0, out, prefix.length, definition.length);
        return out;
    }

    @Test
    void everyFieldSurvivesTheRoundTrip() {
        Schedule schedule = Schedule.builder("nightly", "reports", "0 30 3 * * MON-FRI")
                .zone("Europe/Berlin")
                .payload(new byte[] {0, '\n', '|', (byte) 0xff})
                .callbackUrl(URI.create("https://example.com/hook?a=1"))
                .maxAttempts(3)
                .lease(Duration.ofSeconds(90))
                .misfirePolicy(Schedule.MisfirePolicy.SKIP)
                .build();
        ScheduleStore.Stored back =
                ScheduleStore.decode("nightly", stored(1795000000000L, ScheduleStore.encode(schedule)));
        Schedule s = back.schedule();
        assertThat(back.updatedAtMs()).isEqualTo(1795000000000L);
        assertThat(s.name()).isEqualTo("nightly");
        assertThat(s.topic()).isEqualTo("reports");
        assertThat(s.cron()).isEqualTo("0 30 3 * * MON-FRI");
        assertThat(s.zone().getId()).isEqualTo("Europe/Berlin");
        assertThat(s.payload()).containsExactly(0, '\n', '|', 0xff);
        assertThat(s.callbackUrl()).isEqualTo(URI.create("https://example.com/hook?a=1"));
        assertThat(s.maxAttempts()).isEqualTo(3);
        assertThat(s.lease()).isEqualTo(Duration.ofSeconds(90));
        assertThat(s.misfirePolicy()).isEqualTo(Schedule.MisfirePolicy.SKIP);
    }

    @Test
    void unsetOptionsStayEmptyAndReadBackAsTheDefaults() {
        Schedule schedule = Schedule.builder("tick", "t", "* * * * *").build();
        assertThat(new String(ScheduleStore.encode(schedule), StandardCharsets.UTF_8))
                .isEqualTo("1|t|* * * * *|UTC|FIRE_ONCE|||\n");
        Schedule s = ScheduleStore.decode("tick", stored(1, ScheduleStore.encode(schedule)))
                .schedule();
        assertThat(s.maxAttempts()).isNull();
        assertThat(s.lease()).isNull();
        assertThat(s.callbackUrl()).isNull();
        assertThat(s.payload()).isEmpty();
    }

    @Test
    void aDefinitionOfAnotherFormatIsRefused() {
        assertThatThrownBy(
                        () -> ScheduleStore.decode("x", "1|2|t|* * * * *|Z|SKIP|||\n".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not of format 1");
    }
}
