package io.hourglass.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.logging.LogLevel;

/** Spring Boot's level names as the core's failure log levels ({@code hourglass.*.failure-log-level}). */
class FailureLogLevelUnitTests {

    @Test
    void everySpringBootLevelMapsToTheCoresAndFatalToError() {
        assertThat(HourglassAutoConfiguration.systemLevel("p", LogLevel.TRACE)).isEqualTo(System.Logger.Level.TRACE);
        assertThat(HourglassAutoConfiguration.systemLevel("p", LogLevel.DEBUG)).isEqualTo(System.Logger.Level.DEBUG);
        assertThat(HourglassAutoConfiguration.systemLevel("p", LogLevel.INFO)).isEqualTo(System.Logger.Level.INFO);
        assertThat(HourglassAutoConfiguration.systemLevel("p", LogLevel.WARN)).isEqualTo(System.Logger.Level.WARNING);
        assertThat(HourglassAutoConfiguration.systemLevel("p", LogLevel.ERROR)).isEqualTo(System.Logger.Level.ERROR);
        assertThat(HourglassAutoConfiguration.systemLevel("p", LogLevel.FATAL)).isEqualTo(System.Logger.Level.ERROR);
        assertThat(HourglassAutoConfiguration.systemLevel("p", LogLevel.OFF)).isEqualTo(System.Logger.Level.OFF);
    }

    @Test
    void anEmptyLevelIsRefusedNamingTheProperty() {
        assertThatThrownBy(() -> HourglassAutoConfiguration.systemLevel("hourglass.listener.failure-log-level", null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("hourglass.listener.failure-log-level");
    }
}
