package io.hourglass.testkit;

import io.hourglass.Hourglass;
import io.hourglass.HourglassBuilder;
import java.util.function.UnaryOperator;

/**
 * Builds {@link Hourglass} instances on the test's Redis and namespace; every instance is closed after the test, before
 * the invariant check. Thread-safe.
 */
public interface HourglassFactory {

    /** @return the test's Redis URI */
    String redisUri();

    /** @return the test's namespace */
    String namespace();

    /**
     * @param customizer changes to the builder, which comes preset with the test's Redis, namespace, shards and a short
     *     sweep interval
     * @return a started instance, closed after the test
     */
    Hourglass create(UnaryOperator<HourglassBuilder> customizer);

    /** @return a started instance with the test's settings, closed after the test */
    default Hourglass create() {
        return create(b -> b);
    }
}
