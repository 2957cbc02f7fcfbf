package io.hourglass.server.api;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * The body of {@code POST /v1/topics/{topic}/jobs:batch}.
 *
 * @param jobs 1 to {@value #MAX_JOBS} jobs, each as the body of {@code POST /v1/topics/{topic}/jobs}
 */
public record BatchScheduleBody(
        @ArraySchema(
                arraySchema = @Schema(description = "1 to 1000 jobs, each as the body of POST /v1/topics/{topic}/jobs"),
                schema = @Schema(implementation = ScheduleJobBody.class))
        List<ScheduleJobBody> jobs) {

    /** Most jobs one batch holds. */
    public static final int MAX_JOBS = 1000;

    /** @throws IllegalArgumentException naming {@code jobs} when it is absent, empty or too long */
    void check() {
        if (jobs == null || jobs.isEmpty() || jobs.size() > MAX_JOBS) {
            throw new IllegalArgumentException(
                    "jobs: must hold 1 to " + MAX_JOBS + " jobs, got " + (jobs == null ? "none" : jobs.size()));
        }
    }
}
