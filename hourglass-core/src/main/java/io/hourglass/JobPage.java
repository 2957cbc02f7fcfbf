package io.hourglass;

import java.util.List;

/**
 * One page of a topic's jobs in one state, as {@link Inspector#jobs} returns it.
 *
 * @param jobs the jobs, ordered by due time (by lease deadline for {@code ACTIVE}, by time of death for {@code DEAD}),
 *     then by id; never null, may be empty
 * @param nextCursor the opaque cursor that reads the next page, or null when this page is the last; a page read with it
 *     may still be empty when the jobs after this page left the state in between
 */
public record JobPage(List<JobSummary> jobs, String nextCursor) {}
