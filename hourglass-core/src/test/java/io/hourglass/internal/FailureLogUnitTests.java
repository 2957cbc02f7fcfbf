package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class FailureLogUnitTests {

    @Test
    void urlsInAnErrorLoseTheirQueryFragmentAndUserinfo() {
        assertThat(FailureLog.redacted("java.io.IOException: callback https://hooks.example.com/a?token=s3cret answered"
                        + " HTTP 500"))
                .isEqualTo("java.io.IOException: callback https://hooks.example.com/a?… answered HTTP 500");
        assertThat(FailureLog.redacted("POST http://user:pw@10.0.0.1:8080/x#frag failed"))
                .isEqualTo("POST http://10.0.0.1:8080/x?… failed");
        assertThat(FailureLog.redacted("callback http://127.0.0.1:9/hook answered HTTP 503"))
                .isEqualTo("callback http://127.0.0.1:9/hook answered HTTP 503");
        assertThat(FailureLog.redacted("why? no URL # here")).isEqualTo("why? no URL # here");
        assertThat(FailureLog.redacted(null)).isNull();
    }

    @Test
    void aDeadLetterIsNeverLoggedBelowWarnUnlessFailuresAreOff() {
        assertThat(FailureLog.retriedLevel(System.Logger.Level.INFO)).isEqualTo(Level.INFO);
        assertThat(FailureLog.retriedLevel(System.Logger.Level.OFF)).isNull();
        assertThat(FailureLog.deadLevel(System.Logger.Level.DEBUG)).isEqualTo(Level.WARN);
        assertThat(FailureLog.deadLevel(System.Logger.Level.ERROR)).isEqualTo(Level.ERROR);
        assertThat(FailureLog.deadLevel(System.Logger.Level.OFF)).isNull();
    }
}
