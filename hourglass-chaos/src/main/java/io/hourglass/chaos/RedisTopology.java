package io.hourglass.chaos;

/** The Redis a scenario runs on, with the Redis-level faults it can suffer. */
interface RedisTopology extends AutoCloseable {

    /** @return the URI every client of the scenario uses */
    String clientUri();

    /** SIGKILL of the (master) redis-server, {@code downtimeMs} of nothing, then a restart; returns the fault. */
    Fault killAndRestart(long downtimeMs) throws Exception;

    /** SIGSTOP of the (master) redis-server for {@code durationMs}, then SIGCONT; returns the fault. */
    Fault pause(long durationMs) throws Exception;

    /**
     * The replica is cut off for {@code replicaLagMs} (SIGSTOP, its link dropped), the master is killed (SIGKILL), the
     * replica is promoted by Sentinel, the old master comes back as a replica; returns the fault.
     */
    Fault failover(long replicaLagMs) throws Exception;

    @Override
    void close();
}
