package io.hourglass.embedded;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every started, not yet closed process, closed by one shutdown hook so that a normal JVM exit leaves no Redis. */
final class LiveProcesses {

    private static final Logger LOG = LoggerFactory.getLogger(RedisServerProcess.class);
    private static final Set<RedisServerProcess> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_ADDED = new AtomicBoolean();

    private LiveProcesses() {}

    static void add(RedisServerProcess process) {
        if (HOOK_ADDED.compareAndSet(false, true)) {
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(LiveProcesses::closeAll, "hourglass-redis-shutdown"));
            } catch (IllegalStateException shutdownInProgress) {
                // The watchdog (if any) still ends the process once this JVM is gone.
            }
        }
        OPEN.add(process);
    }

    static void remove(RedisServerProcess process) {
        OPEN.remove(process);
    }

    private static void closeAll() {
        for (RedisServerProcess process : OPEN) {
            try {
                process.close();
            } catch (RuntimeException e) {
                LOG.warn("cannot stop {} at JVM exit", process, e);
            }
        }
    }
}
