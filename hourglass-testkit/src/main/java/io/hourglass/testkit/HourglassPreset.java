package io.hourglass.testkit;

import io.hourglass.HourglassBuilder;

/**
 * Settings for every {@link io.hourglass.Hourglass} a {@link RedisTest} test gets, injected or from its
 * {@link HourglassFactory}: when the test class, or a class enclosing a {@code @Nested} one, implements this, each
 * builder passes through {@link #preset} before the test's own changes. It runs a suite once more with an option on (a
 * cold tier, say) without touching its tests.
 */
@FunctionalInterface
public interface HourglassPreset {

    /**
     * Called on the thread that builds the instance, once per instance.
     *
     * @param builder preset with the test's Redis, namespace, shards and sweep interval; not null
     * @param namespace the test's namespace, for what needs it besides the builder (a cold tier does); not null
     * @return the builder to go on with, usually {@code builder}; not null
     */
    HourglassBuilder preset(HourglassBuilder builder, String namespace);
}
