package io.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

class WorkerOptionsUnitTests {

    @Test
    void defaultsArePlatformThreadsAndTheDocumentedConstants() {
        WorkerOptions o = WorkerOptions.defaults();
        assertThat(o.concurrency()).isEqualTo(WorkerOptions.DEFAULT_CONCURRENCY);
        assertThat(o.maxBatch()).isEqualTo(WorkerOptions.DEFAULT_MAX_BATCH);
        assertThat(o.handlerTimeout()).isNull();
        assertThat(o.shutdownGrace()).isEqualTo(WorkerOptions.DEFAULT_SHUTDOWN_GRACE);
        assertThat(o.virtualThreads()).isFalse();
    }

    @Test
    void badFieldsAreRefusedByNameAndChangeNothing() {
        WorkerOptions.Builder b = WorkerOptions.builder().concurrency(4);
        assertThatThrownBy(() -> b.concurrency(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("concurrency:");
        assertThatThrownBy(() -> b.maxBatch(1001)).hasMessageStartingWith("maxBatch:");
        assertThatThrownBy(() -> b.handlerTimeout(Duration.ZERO)).hasMessageStartingWith("handlerTimeout:");
        assertThatThrownBy(() -> b.shutdownGrace(null)).hasMessageStartingWith("shutdownGrace:");
        assertThat(b.build()).isEqualTo(WorkerOptions.builder().concurrency(4).build());
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void virtualThreadsAreRefusedByNameBeforeJava21() {
        assertThat(WorkerOptions.virtualThreadsAvailable()).isFalse();
        WorkerOptions.Builder b = WorkerOptions.builder();
        assertThatThrownBy(() -> b.virtualThreads(true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("virtualThreads:")
                .hasMessageContaining("Java 21");
        assertThat(b.build().virtualThreads()).isFalse();
        assertThat(b.virtualThreads(false).build()).isEqualTo(WorkerOptions.defaults());
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualThreadsAreAnOptionLikeTheOthersFromJava21() {
        assertThat(WorkerOptions.virtualThreadsAvailable()).isTrue();
        WorkerOptions virtual = WorkerOptions.builder().virtualThreads(true).build();
        assertThat(virtual.virtualThreads()).isTrue();
        assertThat(virtual.mutate().build()).isEqualTo(virtual).hasSameHashCodeAs(virtual);
        assertThat(virtual).isNotEqualTo(WorkerOptions.defaults());
        assertThat(virtual.toString()).contains("virtualThreads=true");
    }

    @Test
    void leaseExtensionAndFailureLoggingAreOffByDefaultAndSettable() {
        WorkerOptions o = WorkerOptions.defaults();
        assertThat(o.autoExtendLease()).isFalse();
        assertThat(o.failureLogLevel()).isEqualTo(System.Logger.Level.WARNING);
        assertThat(o.logStackTraces()).isFalse();

        WorkerOptions set = WorkerOptions.builder()
                .autoExtendLease(true)
                .failureLogLevel(System.Logger.Level.ERROR)
                .logStackTraces(true)
                .build();
        assertThat(set.autoExtendLease()).isTrue();
        assertThat(set.failureLogLevel()).isEqualTo(System.Logger.Level.ERROR);
        assertThat(set.logStackTraces()).isTrue();
        assertThat(set.mutate().build()).isEqualTo(set).hasSameHashCodeAs(set);
        assertThat(set).isNotEqualTo(o);
        assertThat(set.toString()).contains("autoExtendLease=true", "failureLogLevel=ERROR", "logStackTraces=true");

        WorkerOptions.Builder b = WorkerOptions.builder();
        assertThatThrownBy(() -> b.failureLogLevel(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("failureLogLevel:");
        assertThat(b.build()).isEqualTo(WorkerOptions.defaults());
    }
}
