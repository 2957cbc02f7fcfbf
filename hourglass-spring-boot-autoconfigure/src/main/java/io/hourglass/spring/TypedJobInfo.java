package io.hourglass.spring;

import io.hourglass.JobInfo;
import java.util.Objects;

/**
 * A job as {@link HourglassTemplate#get} reads it: the snapshot {@link JobInfo} (state, due time, attempts, last error,
 * …) and its payload decoded to the type asked for.
 *
 * @param info the job's snapshot; never null
 * @param payload the decoded payload; null only when the payload encodes null
 * @param <T> the payload's type
 */
public record TypedJobInfo<T>(JobInfo info, T payload) {

    /**
     * Checks that {@code info} is not null.
     *
     * @param info the job's snapshot; not null
     * @param payload the decoded payload
     */
    public TypedJobInfo {
        Objects.requireNonNull(info, "info");
    }
}
