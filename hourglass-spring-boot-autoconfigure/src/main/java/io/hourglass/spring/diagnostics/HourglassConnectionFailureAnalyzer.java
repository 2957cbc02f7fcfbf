package io.hourglass.spring.diagnostics;

import io.hourglass.spring.HourglassConnectionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because Hourglass could not reach Redis: the address (password masked), which setting
 * it came from, and how to point Hourglass elsewhere or run a development Redis. Registered in
 * {@code META-INF/spring.factories}. Thread-safe (stateless).
 */
public class HourglassConnectionFailureAnalyzer extends AbstractFailureAnalyzer<HourglassConnectionException> {

    /** Creates the analyzer; Spring Boot does so through {@code spring.factories}. */
    public HourglassConnectionFailureAnalyzer() {}

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, HourglassConnectionException cause) {
        String source = cause.connection().source();
        String where =
                switch (source) {
                    case "default" -> "the default, as neither hourglass.redis.* nor spring.data.redis.* is set";
                    case "spring.data.redis" -> "the spring.data.redis.* properties (or a service connection)";
                    case "hourglass.redis" -> "hourglass.redis.uri or hourglass.redis.cluster-nodes";
                    default -> source;
                };
        Throwable reason = cause.getCause();
        while (reason != null && reason.getCause() != null) {
            reason = reason.getCause();
        }
        String description = "Hourglass could not connect to Redis at " + cause.connection() + ".\nThat address is "
                + where + "." + (reason == null ? "" : "\nReason: " + reason.getMessage());
        String action = "Start Redis there, or tell Hourglass where Redis runs: set spring.data.redis.host and"
                + " spring.data.redis.port (or spring.data.redis.url), or hourglass.redis.uri"
                + " (hourglass.redis.cluster-nodes for a Redis Cluster).\n"
                + "For local development, add io.hourglass:hourglass-embedded and set"
                + " hourglass.embedded-redis.enabled=true to run a redis-server with the application.";
        return new FailureAnalysis(description, action, cause);
    }
}
