package io.hourglass.bench.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommandStatsUnitTests {

    private static String info(long fcalls, long fcallMicros, long zadds, long zaddMicros) {
        return "# Commandstats\r\n"
                + "cmdstat_fcall:calls=" + fcalls + ",usec=" + fcallMicros + ",usec_per_call=1.00,rejected_calls=0"
                + ",failed_calls=0\r\n"
                + "cmdstat_zadd:calls=" + zadds + ",usec=" + zaddMicros + ",usec_per_call=1.00,rejected_calls=0"
                + ",failed_calls=0\r\n"
                + "cmdstat_info:calls=7,usec=700,usec_per_call=100.00,rejected_calls=0,failed_calls=0\r\n";
    }

    @Test
    void scriptsAndOtherCommandsAreTimedApartAndTheBenchsOwnCommandsNotAtAll() {
        CommandStats before = CommandStats.parse(info(10, 1_000, 80, 200));
        CommandStats after = CommandStats.parse(info(30, 4_000, 240, 650));

        assertThat(before.scriptMicros()).isEqualTo(1_000);
        assertThat(before.commandMicros()).isEqualTo(200);
        CommandStats between = after.since(before);
        assertThat(between.scriptCalls()).isEqualTo(20);
        assertThat(between.scriptMicros()).isEqualTo(3_000);
        assertThat(between.commandMicros()).isEqualTo(450);
        assertThat(between.calls()).containsOnlyKeys("fcall", "zadd");
    }
}
