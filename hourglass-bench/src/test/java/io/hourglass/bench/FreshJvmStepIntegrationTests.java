package io.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.bench.redis.FreshRedis;
import io.hourglass.bench.scaleout.FreshJvmStep;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A burst run in a JVM of its own ({@code --fresh-jvm}) against this JVM's Redis reports its drain and its CPU. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class FreshJvmStepIntegrationTests {

    @Test
    void aBurstInAFreshJvmDeliversEveryJobNoneEarlyAndReportsTheJvmsCpu() throws Exception {
        try (FreshRedis redis = FreshRedis.start()) {
            FreshJvmStep.Outcome outcome = FreshJvmStep.run(
                    SystemName.HOURGLASS, true, redis, 300, 4, Duration.ofMillis(1500), List.of("-Xmx128m"));

            assertThat(outcome.drain().delivered()).isEqualTo(300);
            assertThat(outcome.drain().early()).isZero();
            assertThat(outcome.drain().latenessMicros().getTotalCount()).isEqualTo(300);
            assertThat(outcome.cpuNanos()).isPositive();
        }
    }
}
