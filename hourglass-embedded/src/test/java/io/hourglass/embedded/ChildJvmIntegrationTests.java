package io.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What happens to Redis when the JVM that started it dies by SIGKILL, with no chance to run shutdown hooks. */
class ChildJvmIntegrationTests {

    private static final Duration CHILD_STARTUP = Duration.ofSeconds(20);

    @TempDir
    Path temp;

    private Process child;
    private RedisServerProcess successor;

    @AfterEach
    void cleanUp() {
        if (child != null) {
            child.destroyForcibly();
        }
        if (successor != null) {
            successor.close();
        }
    }

    @Test
    void theWatchdogTerminatesRedisWhenTheJvmIsKilled() throws Exception {
        long pid = startRedisInChildJvm(temp.resolve("watched"), true);
        assertThat(ProcessHandle.of(pid))
                .hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

        child.destroyForcibly().waitFor();

        long killed = System.nanoTime();
        assertThat(gone(pid, Duration.ofSeconds(5)))
                .as("redis pid %d gone within 5 s", pid)
                .isTrue();
        System.out.printf("redis gone %d ms after its JVM was killed%n", (System.nanoTime() - killed) / 1_000_000);
    }

    @Test
    void anUnwatchedRedisOrphanedByAKilledJvmIsTerminatedByTheNextStartOnItsDataDir() throws Exception {
        Path dataDir = temp.resolve("orphaned");
        long orphan = startRedisInChildJvm(dataDir, false);
        child.destroyForcibly().waitFor();
        assertThat(ProcessHandle.of(orphan)).as("orphan still running").isPresent();

        successor = RedisServerProcess.builder().dataDir(dataDir).build().start();

        assertThat(ProcessHandle.of(orphan)).isEmpty();
        assertThat(successor.pid()).isNotEqualTo(orphan);
        assertThat(Resp.call(successor, "PING")).isEqualTo("+PONG");
        assertThat(dataDir.resolve("redis.log")).content(StandardCharsets.UTF_8).contains("Received SIGTERM");
    }

    @Test
    void aNormalJvmExitStopsRedisThroughTheShutdownHook() throws Exception {
        long pid = startRedisInChildJvm(temp.resolve("hooked"), false, "exit");

        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();

        assertThat(ProcessHandle.of(pid)).as("redis after the JVM exited").isEmpty();
    }

    private long startRedisInChildJvm(Path dataDir, boolean watchParent, String... more) throws Exception {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        child = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        ChildJvmRedis.class.getName(),
                        dataDir.toString(),
                        Boolean.toString(watchParent),
                        String.join(" ", more))
                .redirectErrorStream(true)
                .start();
        BufferedReader output =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.supplyAsync(() -> readPid(output))
                .get(CHILD_STARTUP.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The child prints log lines first; the pid line comes once Redis answers. */
    private static long readPid(BufferedReader output) {
        StringBuilder seen = new StringBuilder();
        try {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith("pid=")) {
                    return Long.parseLong(line.substring(4));
                }
                seen.append(line).append('\n');
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("child JVM ended without printing a pid:\n" + seen);
    }

    private static boolean gone(long pid, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (ProcessHandle.of(pid).isEmpty()) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }
}
