package io.hourglass.spring;

import java.util.Objects;

/**
 * The auto-configured {@link io.hourglass.Hourglass} could not connect to Redis at start-up. Spring Boot's failure
 * analysis reports it with the address, where that address came from, and what to do.
 */
public class HourglassConnectionException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final transient HourglassRedisConnection connection;

    /**
     * @param connection where Hourglass tried to connect; not null
     * @param cause why it could not (a {@link io.hourglass.RedisUnavailableException})
     */
    public HourglassConnectionException(HourglassRedisConnection connection, Throwable cause) {
        super("Hourglass cannot connect to Redis at " + Objects.requireNonNull(connection, "connection"), cause);
        this.connection = connection;
    }

    /** @return where Hourglass tried to connect, passwords masked by its {@code toString()}; not null */
    public HourglassRedisConnection connection() {
        return connection;
    }
}
