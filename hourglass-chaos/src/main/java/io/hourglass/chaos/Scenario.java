package io.hourglass.chaos;

import java.util.Arrays;
import java.util.List;

/** The fault scenarios of the checker; each runs on a fresh Redis in a fresh data dir. */
public enum Scenario {
    /** kill -9 of worker processes (each replaced by a fresh one); Redis with appendfsync always. Must lose 0. */
    WORKER_KILLS("worker-kills", true, false, "always"),
    /** kill -9 and restart of redis-server with appendfsync always. Must lose 0. */
    REDIS_RESTARTS_ALWAYS("redis-restarts-always", true, false, "always"),
    /** kill -9 and restart of redis-server with appendfsync everysec: loss is measured and reported, not failed. */
    REDIS_RESTARTS_EVERYSEC("redis-restarts-everysec", false, false, "everysec"),
    /** SIGSTOP/SIGCONT of Redis and of workers, each longer than the lease. Must lose 0. */
    PAUSES("pauses", true, false, "always"),
    /** kill -9 of a Sentinel-managed master; its replica is promoted. The asynchronous-replication loss is reported. */
    SENTINEL_FAILOVER("sentinel-failover", false, true, null),
    /** The same with {@code waitForReplicas(1, 1 s)}: every accepted job is on the replica. Must lose 0. */
    SENTINEL_FAILOVER_WAIT("sentinel-failover-wait", true, true, null),
    /**
     * Two {@code hourglass-server} processes on one Redis ({@code appendfsync always}); producers POST jobs with their
     * own ids and {@code onConflict=keep} and retry across timeouts, a callback receiver answers 200, 500 or 200 after
     * more than the lease; servers are paused (longer than the lease and the producers' timeout) and killed, Redis is
     * killed. Must lose 0, re-create 0 and never post one job twice at once. Needs the server's runnable jar, so
     * {@code all} leaves it out.
     */
    HTTP_SERVERS("http-servers", true, false, "always", true),
    /**
     * A PostgreSQL cold tier ({@code hourglass-tier-jdbc}) beside Redis ({@code appendfsync always}): a producer
     * schedules most jobs beyond a short horizon, reschedules and cancels some across the tiers, feeder processes move
     * them into Redis, workers run them; feeders are killed and paused, PostgreSQL and Redis are killed mid-move. Must
     * lose 0, run no cancelled job after its cancel returned, and explain every duplicate; a feeder or PostgreSQL crash
     * explains none. Not in {@code all}: {@link ColdTierScenario}.
     */
    COLD_TIER("cold-tier", true, false, "always", false, true);

    private final String label;
    private final boolean zeroLoss;
    private final boolean sentinel;
    private final String appendFsync;
    private final boolean servers;
    private final boolean coldTier;

    Scenario(String label, boolean zeroLoss, boolean sentinel, String appendFsync) {
        this(label, zeroLoss, sentinel, appendFsync, false);
    }

    Scenario(String label, boolean zeroLoss, boolean sentinel, String appendFsync, boolean servers) {
        this(label, zeroLoss, sentinel, appendFsync, servers, false);
    }

    Scenario(String label, boolean zeroLoss, boolean sentinel, String appendFsync, boolean servers, boolean coldTier) {
        this.label = label;
        this.zeroLoss = zeroLoss;
        this.sentinel = sentinel;
        this.appendFsync = appendFsync;
        this.servers = servers;
        this.coldTier = coldTier;
    }

    /** @return the name used on the command line and in reports, e.g. {@code worker-kills} */
    public String label() {
        return label;
    }

    /** @return whether a lost job fails the run in this scenario */
    public boolean zeroLoss() {
        return zeroLoss;
    }

    /** @return whether the scenario runs on a master, a replica and Sentinels rather than one Redis */
    public boolean sentinel() {
        return sentinel;
    }

    /** @return whether the scenario runs {@code hourglass-server} processes and HTTP callbacks instead of workers */
    public boolean servers() {
        return servers;
    }

    /** @return whether the scenario runs a PostgreSQL cold tier and feeder processes beside the workers */
    public boolean coldTier() {
        return coldTier;
    }

    /** @return the standalone Redis's appendfsync policy; null for the Sentinel scenarios (no persistence) */
    String appendFsync() {
        return appendFsync;
    }

    /**
     * @param labels comma-separated scenario labels, or {@code all}
     * @return the scenarios, in declaration order for {@code all}, which means every scenario but those that need the
     *     server's jar ({@link #servers()}) and the cold tier's ({@link #coldTier()}), which run on their own
     * @throws IllegalArgumentException naming an unknown label
     */
    public static List<Scenario> parse(String labels) {
        if (labels.equals("all")) {
            return Arrays.stream(values())
                    .filter(s -> !s.servers && !s.coldTier)
                    .toList();
        }
        return Arrays.stream(labels.split(","))
                .map(String::trim)
                .map(Scenario::byLabel)
                .toList();
    }

    private static Scenario byLabel(String label) {
        return Arrays.stream(values())
                .filter(s -> s.label.equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown scenario " + label + "; known: all, "
                        + String.join(
                                ", ",
                                Arrays.stream(values()).map(Scenario::label).toList())));
    }
}
