package io.hourglass.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A redis-server still running on a data dir from an earlier run whose owner died (e.g. a JVM killed with {@code kill
 * -9} and started again before its watchdog noticed). It would hold the port and the append-only file.
 */
final class StaleServer {

    private static final Logger LOG = LoggerFactory.getLogger(RedisServerProcess.class);
    private static final Duration GRACE = Duration.ofSeconds(10);

    private StaleServer() {}

    /**
     * Terminates the process named by the data dir's pid file, if it is alive and is a redis-server: SIGTERM first, so
     * that it flushes its append-only file, SIGKILL after 10 s.
     */
    static void terminateIfAlive(Path dataDir, Path binary) {
        PidFile.read(PidFile.in(dataDir)).stream()
                .filter(pid -> pid != ProcessHandle.current().pid())
                .mapToObj(ProcessHandle::of)
                .flatMap(Optional::stream)
                .filter(ProcessHandle::isAlive)
                .filter(process -> isRedis(process, binary))
                .forEach(process -> terminate(process, dataDir));
    }

    private static void terminate(ProcessHandle process, Path dataDir) {
        LOG.warn(
                "redis-server pid {} from an earlier run is still running on data dir {}; sending SIGTERM",
                process.pid(),
                dataDir);
        if (Signals.terminate(process, GRACE)) {
            LOG.warn(
                    "redis-server pid {} did not exit within {} s of SIGTERM; killed it with SIGKILL",
                    process.pid(),
                    GRACE.toSeconds());
        }
    }

    /** Guards against a pid file whose pid has since been reused by some unrelated process. */
    private static boolean isRedis(ProcessHandle process, Path binary) {
        String commandLine = commandLine(process);
        Path name = binary.getFileName();
        return commandLine.contains("redis-server") || (name != null && commandLine.contains(name.toString()));
    }

    private static String commandLine(ProcessHandle process) {
        Path proc = Path.of("/proc", Long.toString(process.pid()), "cmdline");
        if (Files.isReadable(proc)) {
            try {
                return new String(Files.readAllBytes(proc), StandardCharsets.UTF_8).replace('\0', ' ');
            } catch (IOException e) {
                return "";
            }
        }
        ProcessHandle.Info info = process.info();
        return info.commandLine().or(info::command).orElse("");
    }
}
