package io.hourglass.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.internal.LogRateLimiter.Decision;
import io.hourglass.internal.LogRateLimiter.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LogRateLimiterUnitTests {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final LogRateLimiter limiter = new LogRateLimiter(10, 10_000, now::get);

    private List<Decision> acquire(String key, int times) {
        List<Decision> out = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            out.add(limiter.acquire(key));
        }
        return out;
    }

    @Test
    void logsTenLinesASecondPerKeyThenLeavesTheRestOut() {
        List<Decision> first = acquire("t", 13);
        assertThat(first.subList(0, 10)).containsOnly(Decision.LOG);
        assertThat(first.get(10)).isEqualTo(Decision.SUPPRESS_FIRST);
        assertThat(first.subList(11, 13)).containsOnly(Decision.SUPPRESS);
        // Another topic has its own budget.
        assertThat(acquire("u", 10)).containsOnly(Decision.LOG);

        now.addAndGet(999);
        assertThat(limiter.acquire("t")).isEqualTo(Decision.SUPPRESS);
        now.addAndGet(1);
        assertThat(acquire("t", 10)).containsOnly(Decision.LOG);
        assertThat(limiter.acquire("t")).isEqualTo(Decision.SUPPRESS);
    }

    @Test
    void aSummaryIsDueOnePeriodAfterTheFirstLineLeftOutAndCountsEachLineOnce() {
        acquire("t", 10 + 523);
        now.addAndGet(9_999);
        assertThat(limiter.drain()).isEmpty();

        now.addAndGet(1);
        assertThat(limiter.drain()).containsExactly(new Summary("t", 523, 10_000));
        assertThat(limiter.drain()).isEmpty();

        // A new run of lines left out starts a new period, with its own first line.
        assertThat(acquire("t", 12))
                .containsExactly(
                        Decision.LOG,
                        Decision.LOG,
                        Decision.LOG,
                        Decision.LOG,
                        Decision.LOG,
                        Decision.LOG,
                        Decision.LOG,
                        Decision.LOG,
                        Decision.LOG,
                        Decision.LOG,
                        Decision.SUPPRESS_FIRST,
                        Decision.SUPPRESS);
        now.addAndGet(10_000);
        assertThat(limiter.drain()).containsExactly(new Summary("t", 2, 10_000));
    }

    @Test
    void anIdleKeyIsForgottenAndStartsAFreshBudget() {
        acquire("t", 11);
        now.addAndGet(10_000);
        assertThat(limiter.drain()).hasSize(1);
        now.addAndGet(10_000);
        assertThat(limiter.drain()).isEmpty();
        assertThat(acquire("t", 10)).containsOnly(Decision.LOG);
        assertThat(limiter.acquire("t")).isEqualTo(Decision.SUPPRESS_FIRST);
    }
}
