package io.hourglass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

class HandlerThreadsUnitTests {

    @Test
    void platformThreadsAreNamedDaemons() {
        ThreadFactory f = HandlerThreads.factory("hourglass-worker-t", false);
        Thread first = f.newThread(() -> {});
        Thread second = f.newThread(() -> {});
        assertThat(first.getName()).isEqualTo("hourglass-worker-t-1");
        assertThat(second.getName()).isEqualTo("hourglass-worker-t-2");
        assertThat(first.isDaemon()).isTrue();
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void virtualThreadsAreUnavailableBeforeJava21() {
        assertThat(HandlerThreads.virtualThreadsAvailable()).isFalse();
        assertThatThrownBy(() -> HandlerThreads.factory("x", true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Java 21");
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void fromJava21TheFactoryMakesNamedVirtualThreads() throws Exception {
        assertThat(HandlerThreads.virtualThreadsAvailable()).isTrue();
        ThreadFactory f = HandlerThreads.factory("hourglass-worker-t", true);
        Thread first = f.newThread(() -> {});
        Thread second = f.newThread(() -> {});
        assertThat(HandlerThreads.isVirtual(first)).isTrue();
        assertThat(first.getName()).isEqualTo("hourglass-worker-t-1");
        assertThat(second.getName()).isEqualTo("hourglass-worker-t-2");
        assertThat(first.isDaemon()).isTrue();
    }
}
