package io.hourglass.internal;

import io.hourglass.Job;

/**
 * A handler whose every run ends within a bound it knows before it starts, such as a callback's request timeout. Its
 * worker's {@link LeaseKeeper} makes the job's lease cover that bound before the run starts, so that the lease cannot
 * lapse while the run is still going, however late the periodic extensions come.
 */
interface BoundedHandler {
    /** The longest the run of {@code job} can take, in ms; positive. */
    long boundMs(Job job);
}
