package io.hourglass;

/**
 * The service through which {@link HourglassBuilder#build()} finds the implementation without the API depending on it
 * ({@link java.util.ServiceLoader}: {@code provides} in the core's module descriptor, and {@code META-INF/services} for
 * the class path). The core provides the one implementation; applications neither implement nor call this.
 */
public interface HourglassProvider {

    /**
     * Connects to Redis and starts an instance.
     *
     * @param settings what the builder decided; not null
     * @return a started instance; thread-safe
     * @throws RedisUnavailableException when Redis cannot be reached
     */
    Hourglass create(HourglassSettings settings);
}
