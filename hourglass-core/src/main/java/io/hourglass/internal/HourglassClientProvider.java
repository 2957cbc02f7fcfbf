package io.hourglass.internal;

import io.hourglass.Hourglass;
import io.hourglass.HourglassProvider;
import io.hourglass.HourglassSettings;

/**
 * The core's one {@link HourglassProvider}, found by {@link io.hourglass.HourglassBuilder#build()} through
 * {@link java.util.ServiceLoader}. Public with a public no-argument constructor only because the service loader needs
 * that on the class path; the package is not exported from the module.
 */
public final class HourglassClientProvider implements HourglassProvider {
    /** Made by the service loader. */
    public HourglassClientProvider() {}

    @Override
    public Hourglass create(HourglassSettings settings) {
        return new HourglassClient(settings);
    }
}
