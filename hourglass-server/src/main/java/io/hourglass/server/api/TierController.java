package io.hourglass.server.api;

import io.hourglass.server.auth.ApiToken;
import io.hourglass.server.auth.RequiresRight;
import io.hourglass.server.auth.Right;
import io.hourglass.tier.jdbc.JdbcColdTier;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/tier} (right {@code admin}): the cold tier, where jobs due beyond the horizon wait in PostgreSQL. A
 * server without one answers 200 {@code {"configured": false}}, so that a dashboard or script can say so plainly; 503
 * while PostgreSQL does not answer ({@link ApiExceptionHandler}). The horizon, lag, moved jobs and total are the
 * namespace's; the per-topic counts only those of the topics the token covers.
 */
@RestController
@Tag(name = "tier", description = "The cold tier: jobs due beyond the horizon wait in PostgreSQL")
public class TierController {
    private final ObjectProvider<JdbcColdTier> tier;

    /** @param tier the cold tier; absent when the server keeps every job in Redis */
    public TierController(ObjectProvider<JdbcColdTier> tier) {
        this.tier = tier;
    }

    /** @return the tier's horizon, the feeder's lag and moved jobs, and the jobs waiting in PostgreSQL */
    @GetMapping("/v1/tier")
    @RequiresRight(Right.ADMIN)
    @Operation(
            summary = "The cold tier: horizon, the feeder's lag, and the jobs waiting in PostgreSQL",
            description = "Without a cold tier, {\"configured\": false} and nothing else. With one, the waiting jobs"
                    + " are read from PostgreSQL at each call, at a bounded cost: a count of at most "
                    + JdbcColdTier.COUNT_LIMIT + " + 1 rows (beyond it, exact is false), the earliest due time (one"
                    + " index probe) and the table's row estimate from the catalogue. Horizon, lag, moved jobs and the"
                    + " total are the namespace's; the per-topic counts are those of the topics the token covers.")
    @ApiResponse(responseCode = "200", description = "The tier, or {\"configured\": false}")
    @ApiResponse(responseCode = "400", description = "A query parameter (the endpoint takes none)")
    @ApiResponse(responseCode = "503", description = "PostgreSQL does not answer; retry later")
    public TierView tier(@RequestAttribute(ApiToken.REQUEST_ATTRIBUTE) ApiToken caller, HttpServletRequest request) {
        AdminLimits.onlyParameters(request);
        JdbcColdTier cold = tier.getIfAvailable();
        if (cold == null) {
            return TierView.NOT_CONFIGURED;
        }
        return TierView.of(cold, cold.backlog(), caller::covers);
    }
}
