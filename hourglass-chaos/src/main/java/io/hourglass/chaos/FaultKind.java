package io.hourglass.chaos;

/** The faults the checker injects. */
public enum FaultKind {
    /** SIGKILL of a worker process; a fresh worker replaces it. */
    WORKER_KILL("worker-kill", false),
    /** SIGSTOP of a worker process for longer than the lease, then SIGCONT. */
    WORKER_PAUSE("worker-pause", false),
    /** SIGKILL of redis-server, then a restart on the same port and append-only file. */
    REDIS_KILL("redis-kill", true),
    /** SIGSTOP of redis-server for longer than the lease, then SIGCONT. */
    REDIS_PAUSE("redis-pause", true),
    /** SIGKILL of the Sentinel-managed master; Sentinel promotes the replica; the old master rejoins as replica. */
    FAILOVER("failover", true),
    /** SIGKILL of an {@code hourglass-server} process; a fresh one is started on the same port. */
    SERVER_KILL("server-kill", false),
    /** SIGSTOP of an {@code hourglass-server} process for longer than the lease and the producers' timeout. */
    SERVER_PAUSE("server-pause", false),
    /** SIGKILL of a cold-tier feeder process, at any point of a move; a fresh feeder replaces it. */
    FEEDER_KILL("feeder-kill", false),
    /** SIGSTOP of a cold-tier feeder process, holding the rows it locked, then SIGCONT. */
    FEEDER_PAUSE("feeder-pause", false),
    /**
     * SIGKILL of every PostgreSQL process of the cold tier (a crash: uncommitted moves roll back), then a restart on
     * the same port and data. It explains no duplicate: a move is reject-on-conflict.
     */
    POSTGRES_KILL("postgres-kill", false);

    private final String label;
    private final boolean redisLevel;

    FaultKind(String label, boolean redisLevel) {
        this.label = label;
        this.redisLevel = redisLevel;
    }

    /** @return the name used in history files and reports */
    public String label() {
        return label;
    }

    /** @return whether the fault hits Redis (and so every process) rather than one worker or server */
    boolean redisLevel() {
        return redisLevel;
    }

    static FaultKind byLabel(String label) {
        for (FaultKind kind : values()) {
            if (kind.label.equals(label)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown fault " + label);
    }
}
