package io.hourglass.tier.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The settings of the tier and of {@code HourglassBuilder.coldTier} are checked before anything connects. */
class JdbcColdTierUnitTests {

    private static JdbcColdTier tier(String namespace) {
        return JdbcColdTier.builder()
                .namespace(namespace)
                .dataSource(new PGSimpleDataSource())
                .migrate(false)
                .build();
    }

    @Test
    void badSettingsAreRefusedByName() {
        assertThatThrownBy(() -> JdbcColdTier.builder().batchSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("batchSize:");
        assertThatThrownBy(() -> JdbcColdTier.builder().pollInterval(Duration.ofMillis(1)))
                .hasMessageStartingWith("pollInterval:");
        assertThatThrownBy(() -> JdbcColdTier.builder().leadTime(Duration.ofSeconds(-1)))
                .hasMessageStartingWith("leadTime:");
        assertThatThrownBy(() -> JdbcColdTier.builder()
                        .dataSource(new PGSimpleDataSource())
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("namespace:");
        assertThatThrownBy(() -> tier("shop").feedOnce())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not started");
        assertThatThrownBy(() -> tier("shop")
                        .store(JobRequest.builder("t")
                                .id("a")
                                .runAt(Instant.now())
                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("job:");
    }

    @Test
    void anInstanceRefusesATierOfAnotherNamespaceOrAHorizonBelowOneSecond() {
        assertThatThrownBy(() -> Hourglass.builder()
                        .namespace("shop")
                        .coldTier(tier("billing"), Duration.ofHours(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("coldTier:");
        assertThatThrownBy(() -> Hourglass.builder().coldTier(tier("default"), Duration.ofMillis(999)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("coldTierHorizon:");
        assertThatThrownBy(() -> Hourglass.builder().coldTier(null, Duration.ofHours(1)))
                .hasMessageStartingWith("coldTier:");
    }
}
