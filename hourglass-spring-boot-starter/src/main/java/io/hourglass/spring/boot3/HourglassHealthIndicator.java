package io.hourglass.spring.boot3;

import io.hourglass.spring.health.HealthReport;
import io.hourglass.spring.health.HourglassHealthCheck;
import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Spring Boot 3.5 Actuator health of Hourglass, named {@code hourglass}: what {@link HourglassHealthCheck} checks
 * (Redis answers; promotion is not stalled for the topics this application listens to), UP or DOWN with its details.
 * Thread-safe.
 */
public class HourglassHealthIndicator extends AbstractHealthIndicator {
    private final HourglassHealthCheck check;

    /** @param check the line-neutral check; not null */
    public HourglassHealthIndicator(HourglassHealthCheck check) {
        super("Hourglass health check failed");
        this.check = Objects.requireNonNull(check, "check");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        HealthReport report = check.check();
        (report.up() ? builder.up() : builder.down()).withDetails(report.details());
    }
}
