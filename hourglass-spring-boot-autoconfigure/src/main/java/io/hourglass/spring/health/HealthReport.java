package io.hourglass.spring.health;

import java.util.Map;

/**
 * What {@link HourglassHealthCheck} found, independent of the Spring Boot line's health API.
 *
 * @param up whether Hourglass is healthy
 * @param details what was checked, for the health endpoint; never null, unmodifiable
 */
public record HealthReport(boolean up, Map<String, Object> details) {

    /**
     * Copies the details.
     *
     * @param up whether Hourglass is healthy
     * @param details what was checked; not null
     */
    public HealthReport {
        details = Map.copyOf(details);
    }
}
