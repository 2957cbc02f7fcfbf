package io.hourglass.spring;

import io.hourglass.JobRequest;

/**
 * Options a topic's jobs get when {@link HourglassTemplate} schedules them and the caller does not set them: the
 * {@code maxAttempts}, {@code backoff}, {@code lease} and {@code priority} attributes of the topic's
 * {@link HourglassListener} method. Implementations are thread-safe.
 */
@FunctionalInterface
public interface TopicJobDefaults {
    /** No defaults: every job takes the instance's. */
    TopicJobDefaults NONE = (topic, request) -> {};

    /**
     * Sets the topic's defaults on a request before the caller's options are applied, so that the caller's win.
     *
     * @param topic the request's topic; not null
     * @param request the request being built; not null
     */
    void applyTo(String topic, JobRequest.Builder request);
}
