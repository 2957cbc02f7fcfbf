package io.hourglass.bench.scaleout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuUnitTests {

    @Test
    void aThreadsKindIsItsNameWithoutItsNumbering() {
        assertThat(ThreadCpu.kind("lettuce-nioEventLoop-4-12")).isEqualTo("lettuce-nioEventLoop");
        assertThat(ThreadCpu.kind("hourglass-worker-scale-out-31")).isEqualTo("hourglass-worker-scale-out");
        assertThat(ThreadCpu.kind("G1 Conc#0")).isEqualTo("G1 Conc");
        assertThat(ThreadCpu.kind("hourglass-timer-bench")).isEqualTo("hourglass-timer-bench");
        assertThat(ThreadCpu.kind("42")).isEqualTo("42");
    }

    @Test
    void aThreadsTimeSinceASnapshotIsWhatItRanMeanwhile() throws Exception {
        ThreadCpu before = ThreadCpu.now();
        Thread spinner = new Thread(
                () -> {
                    long end = System.nanoTime() + 50_000_000L;
                    long x = 0;
                    while (System.nanoTime() < end) {
                        x += System.identityHashCode(new Object());
                    }
                    if (x == 42) {
                        System.out.print("");
                    }
                },
                "cpu-spinner-7");
        spinner.start();
        Thread.sleep(30); // sampled while it still runs: a thread that ended is no longer listed
        Map<String, Long> used = ThreadCpu.now().since(before);
        spinner.join();
        assertThat(used).containsKey("cpu-spinner-7");
        assertThat(used.get("cpu-spinner-7")).isPositive();
    }
}
