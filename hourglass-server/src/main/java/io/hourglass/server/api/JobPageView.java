package io.hourglass.server.api;

import io.hourglass.JobPage;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * One page of a topic's jobs in one state ({@code JobPage} in the API's description).
 *
 * @param jobs the jobs, by due time (lease deadline for ACTIVE, time of death for DEAD), then by id
 * @param nextCursor the cursor that reads the next page, or null when this page is the last
 */
@Schema(name = "JobPage", description = "One page of a topic's jobs in one state")
public record JobPageView(
        @Schema(
                description =
                        "the jobs, by due time (lease deadline for ACTIVE, time of death for DEAD), then by" + " id")
        List<JobSummaryView> jobs,

        @Schema(
                description = "pass it as cursor to read the next page; null when this page is the last (a next page"
                        + " may still be empty when its jobs left the state meanwhile)",
                nullable = true)
        String nextCursor) {

    static JobPageView of(JobPage page) {
        return new JobPageView(page.jobs().stream().map(JobSummaryView::of).toList(), page.nextCursor());
    }
}
