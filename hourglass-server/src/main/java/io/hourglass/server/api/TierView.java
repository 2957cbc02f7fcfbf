package io.hourglass.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.hourglass.tier.jdbc.JdbcColdTier;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The cold tier as {@code GET /v1/tier} shows it ({@code Tier} in the API's description): without a tier only
 * {@code configured: false}; with one, its horizon, the feeder's lag and moved jobs, and what waits in PostgreSQL.
 *
 * @param configured whether the server keeps jobs due beyond a horizon in a cold tier
 * @param horizonMs jobs due further ahead than this many ms wait in PostgreSQL; absent without a tier
 * @param lagMs how far the feeder is behind, ms ({@link JdbcColdTier#lag()}); absent without a tier
 * @param movedJobs jobs this server's feeder moved into Redis since it started; absent without a tier
 * @param waiting what waits in PostgreSQL; absent without a tier
 */
@Schema(name = "Tier", description = "The cold tier: horizon, the feeder's lag, and the jobs waiting in PostgreSQL")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TierView(
        @Schema(
                description = "whether jobs due beyond a horizon wait in a cold tier (PostgreSQL); when false, no"
                        + " other field is present")
        boolean configured,

        @Schema(
                description = "jobs due further ahead than this many ms are stored in PostgreSQL, the others in Redis;"
                        + " absent without a cold tier")
        Long horizonMs,

        @Schema(
                description = "how far the feeder is behind, ms: how long ago the earliest job still in PostgreSQL"
                        + " came within the horizon, as of the feeder's last pass; 0 while it keeps up. A job is late"
                        + " because of the feeder only once this exceeds the horizon. Absent without a cold tier")
        Long lagMs,

        @Schema(
                description = "jobs this server's feeder moved into Redis since the server started (other processes'"
                        + " feeders count their own); absent without a cold tier")
        Long movedJobs,

        @Schema(description = "what waits in PostgreSQL, read when asked; absent without a cold tier")
        Waiting waiting) {

    /** The answer of a server without a cold tier. */
    static final TierView NOT_CONFIGURED = new TierView(false, null, null, null, null);

    /**
     * @param tier the tier
     * @param backlog what it holds, just read
     * @param covers which topics the caller may see
     */
    static TierView of(JdbcColdTier tier, JdbcColdTier.Backlog backlog, Predicate<String> covers) {
        return new TierView(
                true,
                tier.horizon().map(Duration::toMillis).orElse(null),
                tier.lag().toMillis(),
                tier.movedJobs(),
                Waiting.of(backlog, covers));
    }

    /**
     * The jobs waiting in PostgreSQL ({@code TierWaiting} in the API's description).
     *
     * @param jobs jobs stored, all topics of the namespace; when {@code exact} is false, at least this many
     * @param exact whether {@code jobs} is exact
     * @param topics jobs per topic that the caller's token covers, sorted by topic; null when not {@code exact}
     * @param earliestDueAt ISO-8601 due time of the earliest stored job, or null when none is stored
     * @param tableRowsEstimate PostgreSQL's estimate of the table's rows (every namespace); -1 when never analysed
     */
    @Schema(name = "TierWaiting", description = "The jobs waiting in PostgreSQL, read when asked")
    public record Waiting(
            @Schema(
                    description = "jobs stored for the namespace, every topic; when exact is false, at least this many"
                            + " (the count reads at most " + JdbcColdTier.COUNT_LIMIT + " + 1 rows, so that it costs"
                            + " little on a table of any size)")
            long jobs,

            @Schema(description = "whether jobs is the exact count")
            boolean exact,

            @Schema(
                    description = "jobs per topic, for the topics the token covers, sorted by topic; null when more"
                            + " jobs are stored than the count reads",
                    nullable = true)
            Map<String, Long> topics,

            @Schema(
                    description = "ISO-8601 due time of the earliest stored job (also of one set aside because Redis"
                            + " refused it); null when none is stored",
                    nullable = true)
            String earliestDueAt,

            @Schema(
                    description = "PostgreSQL's estimate of the rows of the whole table (every namespace it holds), as"
                            + " of its last analyse, read from its catalogue without a scan; -1 when never analysed")
            long tableRowsEstimate) {

        static Waiting of(JdbcColdTier.Backlog backlog, Predicate<String> covers) {
            return new Waiting(
                    backlog.jobs(),
                    backlog.exact(),
                    backlog.topics() == null
                            ? null
                            : backlog.topics().entrySet().stream()
                                    .filter(e -> covers.test(e.getKey()))
                                    .collect(Collectors.toMap(
                                            Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new)),
                    backlog.earliestDue() == null ? null : backlog.earliestDue().toString(),
                    backlog.tableRowsEstimate());
        }
    }
}
