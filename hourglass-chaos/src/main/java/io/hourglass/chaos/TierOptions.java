package io.hourglass.chaos;

/**
 * The settings of the cold-tier scenario ({@link Scenario#coldTier()}).
 *
 * @param feeders feeder processes, each running the tier's feeder and nothing else
 * @param feederKills {@code kill -9} of a feeder (a fresh one replaces it at once)
 * @param feederPauses SIGSTOP/SIGCONT of a feeder, each for 1 to 4 s
 * @param postgresKills {@code kill -9} of every PostgreSQL process, then a restart on the same data after 0.2 to 1.5 s
 * @param horizonMs the tier's horizon in ms: jobs due later than this go to PostgreSQL; at least 1000
 * @param maxDelayMs jobs are due 0 to this many ms after they are scheduled; most beyond the horizon
 */
public record TierOptions(
        int feeders, int feederKills, int feederPauses, int postgresKills, long horizonMs, long maxDelayMs) {

    /** @return two feeders, two feeder kills, one pause, two PostgreSQL kills, a 2 s horizon, delays up to 12 s */
    public static TierOptions defaults() {
        return new TierOptions(2, 2, 1, 2, 2_000, 12_000);
    }

    /** @return the feeder's lead time in ms: it moves a job this long before the job comes within the horizon */
    long leadTimeMs() {
        return 1_000;
    }
}
