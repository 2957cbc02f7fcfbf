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
                .isEqualTo(CallbackOptions.builder()
                        .concurrency(CallbackOptions.DEFAULT_CONCURRENCY)
                        .timeout(CallbackOptions.DEFAULT_TIMEOUT)
                        .contentType(CallbackOptions.DEFAULT_CONTENT_TYPE)
                        .signingSecret(null)
                        .virtualThreads(false)
                        .build());
        assertThat(o.signingSecret()).isNull();
        assertThat(o.virtualThreads()).isFalse();
    }

    @Test
    void badFieldsAreRefusedByName() {
        assertThatThrownBy(() -> CallbackOptions.builder().concurrency(0)).hasMessageStartingWith("concurrency:");
        assertThatThrownBy(() -> CallbackOptions.builder().timeout(Duration.ZERO))
                .hasMessageStartingWith("timeout:");
        assertThatThrownBy(() -> CallbackOptions.builder().signingSecret("short"))
                .hasMessageStartingWith("signingSecret:");
        assertThatThrownBy(() -> CallbackOptions.builder().contentType(" ")).hasMessageStartingWith("contentType:");
        assertThatThrownBy(() -> CallbackOptions.builder().nextSigningSecret("short"))
                .hasMessageStartingWith("nextSigningSecret:");
        assertThatThrownBy(() -> CallbackOptions.builder().maxDeferrals(-1)).hasMessageStartingWith("maxDeferrals:");
        assertThatThrownBy(() -> CallbackOptions.builder().maxDeferrals(1001)).hasMessageStartingWith("maxDeferrals:");
        assertThatThrownBy(() -> CallbackOptions.builder().maxDispatchDeadline(Duration.ZERO))
                .hasMessageStartingWith("maxDispatchDeadline:");
        assertThatThrownBy(() -> CallbackOptions.builder().maxDispatchDeadline(Duration.ofHours(25)))
                .hasMessageStartingWith("maxDispatchDeadline:");
    }

    @Test
    void politenessDefaultsAndCopies() {
        CallbackOptions o = CallbackOptions.defaults();
        assertThat(o.maxDeferrals())
                .isEqualTo(CallbackOptions.DEFAULT_MAX_DEFERRALS)
                .isEqualTo(10);
        assertThat(o.maxDispatchDeadline()).isEqualTo(Duration.ofMinutes(30));
        CallbackOptions changed = o.mutate()
                .maxDeferrals(0)
                .maxDispatchDeadline(Duration.ofSeconds(5))
                .build();
        assertThat(changed.mutate().build()).isEqualTo(changed).isNotEqualTo(o);
        assertThat(changed.maxDeferrals()).isZero();
        assertThat(changed.maxDispatchDeadline()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aNextSecretNeedsACurrentOneToRotateFromAndMustDifferFromIt() {
        assertThatThrownBy(() -> CallbackOptions.builder()
                        .nextSigningSecret("fedcba9876543210")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("nextSigningSecret:");
        assertThatThrownBy(() -> CallbackOptions.builder()
                        .signingSecret("0123456789abcdef")
                        .nextSigningSecret("0123456789abcdef")
                        .build())
                .hasMessageStartingWith("nextSigningSecret:");
        CallbackOptions rotating = CallbackOptions.builder()
                .signingSecret("0123456789abcdef")
                .nextSigningSecret("fedcba9876543210")
                .build();
        assertThat(rotating.nextSigningSecret()).isEqualTo("fedcba9876543210");
        assertThat(rotating.mutate().build()).isEqualTo(rotating);
        assertThat(rotating)
                .isNotEqualTo(rotating.mutate().nextSigningSecret(null).build());
        assertThat(rotating.toString())
                .contains("rotating=true")
                .doesNotContain("0123456789abcdef")
                .doesNotContain("fedcba9876543210");
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void virtualThreadsAreRefusedByNameBeforeJava21() {
        assertThatThrownBy(() -> CallbackOptions.builder().virtualThreads(true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("virtualThreads:")
                .hasMessageContaining("Java 21");
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualThreadsSurviveTheOtherCopies() {
        CallbackOptions withVirtual =
                CallbackOptions.builder().virtualThreads(true).build();
        CallbackOptions o = withVirtual
                .mutate()
                .concurrency(500)
                .timeout(Duration.ofSeconds(3))
                .signingSecret("0123456789abcdef")
                .build();
        assertThat(o.virtualThreads()).isTrue();
        assertThat(o.concurrency()).isEqualTo(500);
        assertThat(withVirtual.concurrency()).isEqualTo(CallbackOptions.DEFAULT_CONCURRENCY);
        assertThat(o.toString()).contains("virtualThreads=true").doesNotContain("0123456789abcdef");
    }

    @Test
    void failureLoggingIsSettableAsForWorkers() {
        CallbackOptions o = CallbackOptions.defaults();
        assertThat(o.failureLogLevel()).isEqualTo(WorkerOptions.DEFAULT_FAILURE_LOG_LEVEL);
        assertThat(o.logStackTraces()).isFalse();
        CallbackOptions set = CallbackOptions.builder()
                .failureLogLevel(System.Logger.Level.OFF)
                .logStackTraces(true)
                .build();
        assertThat(set.mutate().build()).isEqualTo(set).hasSameHashCodeAs(set).isNotEqualTo(o);
        assertThat(set.toString()).contains("failureLogLevel=OFF", "logStackTraces=true");
        assertThatThrownBy(() -> CallbackOptions.builder().failureLogLevel(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("failureLogLevel:");
    }
}
