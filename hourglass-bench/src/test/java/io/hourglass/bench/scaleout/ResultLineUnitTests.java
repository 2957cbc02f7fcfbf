package io.hourglass.bench.scaleout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.hourglass.bench.systems.DrainResult;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ResultLineUnitTests {

    @Test
    void aJavaWorkersReportReadsBackWithItsThreadsNamedAsTheyAre() {
        Histogram lateness = new Histogram(3);
        lateness.recordValue(1_200);
        lateness.recordValue(900);
        Map<String, Long> threads = new LinkedHashMap<>();
        threads.put("lettuce-nioEventLoop-4-1", 1_500_000L);
        threads.put("C2 Compiler, queue:1 \"x\"", 7L);
        String line = ScaleOutWorker.reportLine(new DrainResult(2, 2, 1, 0.5, lateness, ""), 42L, 9_000L, 3L, threads);

        assertThat(line).doesNotContain("\n");
        WorkerProcess.Report report = WorkerProcess.parse(line);
        assertThat(report.delivered()).isEqualTo(2);
        assertThat(report.early()).isEqualTo(1);
        assertThat(report.lastHandledMicros()).isEqualTo(42);
        assertThat(report.cpuNanos()).isEqualTo(9_000);
        assertThat(report.jitMillis()).isEqualTo(3);
        assertThat(report.latenessMicros().getTotalCount()).isEqualTo(2);
        assertThat(report.latenessMicros().getMaxValue()).isBetween(1_199L, 1_201L);
        assertThat(report.threadCpuNanos()).containsExactlyEntriesOf(threads);
        assertThat(report.busiestThread()).isEqualTo(Map.entry("lettuce-nioEventLoop-4-1", 1_500_000L));
    }

    @Test
    void aWorkerWithoutHdrHistogramReportsEachLatenessAndNoThreads() {
        WorkerProcess.Report report = WorkerProcess.parse("RESULT {\"delivered\":3,\"early\":0,\"lastHandledMicros\":5,"
                + "\"cpuNanos\":1000,\"jitMillis\":-1,\"latenessMicros\":[10,20,30]}");
        assertThat(report.latenessMicros().getTotalCount()).isEqualTo(3);
        assertThat(report.jitMillis()).isEqualTo(-1);
        assertThat(report.threadCpuNanos()).isEmpty();
    }

    @Test
    void aReportWithoutAFieldNamesIt() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> WorkerProcess.parse(
                        "RESULT {\"delivered\":3,\"early\":0,\"cpuNanos\":1,\"jitMillis\":-1,\"latenessMicros\":[]}"))
                .withMessageContaining("lastHandledMicros");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> WorkerProcess.parse("RESULT {\"delivered\":3,\"early\":0,\"lastHandledMicros\":5,"
                        + "\"cpuNanos\":1,\"jitMillis\":-1}"))
                .withMessageContaining("lateness");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> WorkerProcess.parse("RESULT 3 0 5 1 -1 []"))
                .withMessageContaining("RESULT 3 0 5");
    }
}
