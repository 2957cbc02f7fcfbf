package io.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

class CallbackOptionsUnitTests {

    @Test
    void defaultsAreUnsignedPlatformThreadsAndTheDocumentedConstants() {
        CallbackOptions o = CallbackOptions.defaults();
        assertThat(o)
                .isEqualTo(new CallbackOptions(
                        CallbackOptions.DEFAULT_CONCURRENCY,
                        CallbackOptions.DEFAULT_TIMEOUT,
                        CallbackOptions.DEFAULT_CONTENT_TYPE,
                        null,
                        false));
        assertThat(o.virtualThreads()).isFalse();
    }

    @Test
    void badFieldsAreRefusedByName() {
        assertThatThrownBy(() -> CallbackOptions.defaults().withConcurrency(0)).hasMessageStartingWith("concurrency:");
        assertThatThrownBy(() -> CallbackOptions.defaults().withTimeout(Duration.ZERO))
                .hasMessageStartingWith("timeout:");
        assertThatThrownBy(() -> CallbackOptions.defaults().withSigningSecret("short"))
                .hasMessageStartingWith("signingSecret:");
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void virtualThreadsAreRefusedByNameBeforeJava21() {
        assertThatThrownBy(() -> CallbackOptions.defaults().withVirtualThreads(true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("virtualThreads:")
                .hasMessageContaining("Java 21");
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualThreadsSurviveTheOtherCopies() {
        CallbackOptions o = CallbackOptions.defaults()
                .withVirtualThreads(true)
                .withConcurrency(500)
                .withTimeout(Duration.ofSeconds(3))
                .withSigningSecret("0123456789abcdef");
        assertThat(o.virtualThreads()).isTrue();
        assertThat(o.concurrency()).isEqualTo(500);
        assertThat(o.toString()).contains("virtualThreads=true").doesNotContain("0123456789abcdef");
    }
}
