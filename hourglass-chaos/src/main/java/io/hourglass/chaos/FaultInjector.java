package io.hourglass.chaos;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Injects a scenario's planned faults one after another, each at its planned time (or as soon as the previous one is
 * over), and records each in the scenario's {@code faults.log} once it is over.
 */
final class FaultInjector {
    private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);

    private final List<PlannedFault> plan;
    private final ProcessGroup processes;
    private final RedisTopology redis;
    private final ColdTierDatabase postgres;
    private final RecordLog log;
    private volatile Exception failure;
    private Thread thread;

    FaultInjector(List<PlannedFault> plan, ProcessGroup processes, RedisTopology redis, RecordLog log) {
        this(plan, processes, redis, null, log);
    }

    /** @param postgres the cold tier's PostgreSQL, for {@link FaultKind#POSTGRES_KILL}; null where there is none */
    FaultInjector(
            List<PlannedFault> plan,
            ProcessGroup processes,
            RedisTopology redis,
            ColdTierDatabase postgres,
            RecordLog log) {
        this.plan = plan;
        this.processes = processes;
        this.redis = redis;
        this.postgres = postgres;
        this.log = log;
    }

    void start(long scenarioStartMs) {
        thread = new Thread(() -> run(scenarioStartMs), "fault-injector");
        thread.start();
    }

    /** Waits until every planned fault was injected. @throws IllegalStateException if injecting one failed */
    void join() throws InterruptedException {
        thread.join();
        if (failure != null) {
            throw new IllegalStateException("fault injection failed: " + failure, failure);
        }
    }

    private void run(long scenarioStartMs) {
        try {
            for (PlannedFault planned : plan) {
                long wait = scenarioStartMs + planned.atMs() - System.currentTimeMillis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                Fault fault = inject(planned);
                log.append(fault.fields());
                LOG.info(
                        "{} of {} (pid {}) for {} ms",
                        fault.kind().label(),
                        fault.target(),
                        fault.pid(),
                        fault.endMs() - fault.startMs());
            }
        } catch (Exception e) {
            failure = e;
        }
    }

    private Fault inject(PlannedFault planned) throws Exception {
        return switch (planned.kind()) {
            case WORKER_KILL, SERVER_KILL, FEEDER_KILL -> processes.killAndReplace(planned.workerIndex());
            case WORKER_PAUSE, SERVER_PAUSE, FEEDER_PAUSE ->
                processes.pause(planned.workerIndex(), planned.durationMs());
            case POSTGRES_KILL -> postgres.killAndRestart(planned.durationMs());
            case REDIS_KILL -> redis.killAndRestart(planned.durationMs());
            case REDIS_PAUSE -> redis.pause(planned.durationMs());
            case FAILOVER -> redis.failover(planned.durationMs());
        };
    }
}
