package io.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RedisServerProcessIntegrationTests {

    private final List<RedisServerProcess> started = new ArrayList<>();

    @TempDir
    Path temp;

    @AfterEach
    void closeAll() {
        started.forEach(RedisServerProcess::close);
    }

    private RedisServerProcess start(RedisServerProcess.Builder builder) throws IOException {
        RedisServerProcess redis = builder.build();
        started.add(redis);
        return redis.start();
    }

    static Stream<Path> binaries() {
        return Stream.of(RedisBinaries.resolve(), RedisBinaries.embedded());
    }

    @Test
    void aPasswordIsRequiredKeptOffTheCommandLineAndInAnOwnerOnlyFile() throws Exception {
        String password = "s3cret-password-0123456789";
        RedisServerProcess redis = start(RedisServerProcess.builder()
                .dataDir(temp.resolve("data"))
                .appendOnly(true)
                .password(password));

        assertThat(Resp.call(redis, "PING")).startsWith("-NOAUTH");
        assertThat(RedisPing.ping(redis.host(), redis.port(), 2000, password)).isEqualTo("+PONG");
        assertThat(RedisPing.ping(redis.host(), redis.port(), 2000, "wrong-password-0123456789"))
                .startsWith("-WRONGPASS");
        assertThat(redis.uri()).doesNotContain(password);
        assertThat(redis.toString()).doesNotContain(password);
        assertThat(ProcessHandle.of(redis.pid())
                        .orElseThrow()
                        .info()
                        .commandLine()
                        .orElse(""))
                .doesNotContain(password);
        Path authFile = redis.dataDir().resolve("redis-auth.conf");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(authFile)))
                .isEqualTo("rw-------");
        // A restart replays the append-only file behind the password: readiness still waits for PONG.
        redis.restart();
        assertThat(RedisPing.ping(redis.host(), redis.port(), 2000, password)).isEqualTo("+PONG");
        assertThatThrownBy(() -> RedisServerProcess.builder().password("short"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("password: ")
                .hasMessageNotContaining("short");
    }

    @Test
    void startsOnAFreePortAndAnswersPing() throws Exception {
        RedisServerProcess a = start(RedisServerProcess.builder());
        RedisServerProcess b = start(RedisServerProcess.builder());

        assertThat(Resp.call(a, "PING")).isEqualTo("+PONG");
        assertThat(Resp.call(b, "PING")).isEqualTo("+PONG");
        assertThat(a.port()).isNotEqualTo(b.port());
        assertThat(a.uri()).isEqualTo("redis://127.0.0.1:" + a.port());
        assertThat(a.isRunning()).isTrue();
        assertThat(a.version()).isEqualTo(RedisBinaries.version(a.binary()));
        assertThat(a.dataDir().resolve("redis.log"))
                .content(StandardCharsets.UTF_8)
                .contains("Ready to accept");
        assertThat(Resp.call(a, "CONFIG", "GET", "save")).isEqualTo("save\n");
    }

    @Test
    void theRedisPidIsRedisItselfNotItsWatchdog() throws Exception {
        RedisServerProcess redis = start(RedisServerProcess.builder());
        assertThat(Resp.call(redis, "INFO", "server")).contains("process_id:" + redis.pid() + "\r\n");
        assertThat(Files.readString(redis.dataDir().resolve("redis.pid")).strip())
                .isEqualTo(Long.toString(redis.pid()));
    }

    @ParameterizedTest
    @MethodSource("binaries")
    void withAppendFsyncAlwaysAWriteSurvivesSigkillAndRestart(Path binary) throws Exception {
        Path dataDir = temp.resolve("data dir with spaces");
        RedisServerProcess redis = start(RedisServerProcess.builder()
                .binary(binary)
                .dataDir(dataDir)
                .appendOnly(true)
                .appendFsync("always"));
        int port = redis.port();
        assertThat(Resp.call(redis, "SET", "greeting", "hello")).isEqualTo("+OK");
        long pid = redis.pid();

        redis.kill();

        assertThat(redis.isRunning()).isFalse();
        assertThat(ProcessHandle.of(pid)).isEmpty();
        assertThat(descendantsMentioning(dataDir))
                .as("watchdog shell after kill")
                .isEmpty();

        redis.restart();

        assertThat(redis.port()).isEqualTo(port);
        assertThat(redis.pid()).isNotEqualTo(pid);
        assertThat(Resp.call(redis, "GET", "greeting")).isEqualTo("hello");
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void ownSessionPutsRedisInASessionApartFromThisJvmsAndKeepsItsPid() throws Exception {
        assumeTrue(
                RedisServerProcess.SETSID != null,
                "no setsid command on this machine, so ownSession has nothing to use");
        long jvmSession = sessionOf(ProcessHandle.current().pid());
        for (boolean watchParent : new boolean[] {true, false}) {
            RedisServerProcess shared = start(RedisServerProcess.builder().watchParent(watchParent));
            RedisServerProcess own =
                    start(RedisServerProcess.builder().watchParent(watchParent).ownSession(true));
            assertThat(sessionOf(shared.pid()))
                    .as("default, watchParent %s", watchParent)
                    .isEqualTo(jvmSession);
            assertThat(sessionOf(own.pid()))
                    .as("ownSession, watchParent %s", watchParent)
                    .isEqualTo(own.pid());
            assertThat(Resp.call(own, "INFO", "server")).contains("process_id:" + own.pid() + "\r\n");
            own.stop();
            assertThat(ProcessHandle.of(own.pid()).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
        }
    }

    /** The session id, field 6 of {@code /proc/<pid>/stat} (after the parenthesised command name). */
    private static long sessionOf(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[3]);
    }

    @Test
    void restartAfterStopKeepsPortAndDataDir() throws Exception {
        RedisServerProcess redis = start(RedisServerProcess.builder().appendOnly(true));
        int port = redis.port();
        Resp.call(redis, "SET", "k", "v");

        redis.stop();
        assertThat(redis.isRunning()).isFalse();
        redis.restart();

        assertThat(redis.port()).isEqualTo(port);
        assertThat(Resp.call(redis, "GET", "k")).isEqualTo("v");
    }

    @Test
    void aRedisLeftRunningOnTheDataDirIsTerminatedBeforeANewOneStarts() throws Exception {
        Path dataDir = temp.resolve("shared");
        RedisServerProcess first = start(RedisServerProcess.builder().dataDir(dataDir));
        long firstPid = first.pid();

        RedisServerProcess second = start(RedisServerProcess.builder().dataDir(dataDir));

        assertThat(ProcessHandle.of(firstPid)).isEmpty();
        assertThat(first.isRunning()).isFalse();
        assertThat(second.pid()).isNotEqualTo(firstPid);
        assertThat(Files.readString(dataDir.resolve("redis.pid")).strip()).isEqualTo(Long.toString(second.pid()));
        assertThat(Resp.call(second, "PING")).isEqualTo("+PONG");

        first.close();
        assertThat(second.isRunning()).isTrue();
        assertThat(dataDir).isDirectory();
    }

    @Test
    void aPausedRedisAnswersNothingUntilResumed() throws Exception {
        RedisServerProcess redis = start(RedisServerProcess.builder());

        redis.pause();
        assertThatThrownBy(() -> Resp.call(redis, 300, "PING")).isInstanceOf(SocketTimeoutException.class);
        assertThat(redis.isRunning()).isTrue();

        redis.resume();
        assertThat(Resp.call(redis, 300, "PING")).isEqualTo("+PONG");
    }

    @Test
    void aPausedRedisStopsPromptly() throws Exception {
        RedisServerProcess redis = start(RedisServerProcess.builder());
        long pid = redis.pid();
        redis.pause();

        long before = System.nanoTime();
        redis.stop();

        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(3));
        assertThat(ProcessHandle.of(pid)).isEmpty();
    }

    @Test
    void closeDeletesATemporaryDataDirButKeepsAGivenOne() throws Exception {
        RedisServerProcess temporary = start(RedisServerProcess.builder());
        RedisServerProcess given = start(RedisServerProcess.builder().dataDir(temp.resolve("kept")));

        temporary.close();
        given.close();

        assertThat(temporary.dataDir()).doesNotExist();
        assertThat(given.dataDir()).isDirectory();
        assertThat(given.dataDir().resolve("redis.log")).exists();
        assertThatThrownBy(temporary::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void aPortInUseFailsWithTheLogTail() throws Exception {
        RedisServerProcess holder = start(RedisServerProcess.builder());

        RedisServerProcess.Builder samePort = RedisServerProcess.builder().port(holder.port());
        assertThatThrownBy(() -> start(samePort))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with code")
                .hasMessageContaining("Address already in use");
        assertThat(Resp.call(holder, "PING")).isEqualTo("+PONG");
    }

    @Test
    void aBadDirectiveFailsWithRedisOwnMessage() {
        RedisServerProcess.Builder bad = RedisServerProcess.builder().arg("no-such-directive", "1");
        assertThatThrownBy(() -> start(bad))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no-such-directive");
    }

    @Test
    void extraDirectivesReachRedisAndReservedOnesAreRefused() throws Exception {
        RedisServerProcess redis =
                start(RedisServerProcess.builder().arg("hz", "17").arg("save", "900", "1"));

        assertThat(Resp.call(redis, "CONFIG", "GET", "hz")).isEqualTo("hz\n17");
        assertThat(Resp.call(redis, "CONFIG", "GET", "save")).isEqualTo("save\n900 1");
        assertThatThrownBy(() -> RedisServerProcess.builder().arg("port", "1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RedisServerProcess.builder().appendFsync("sometimes"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBuilderIsImmutable() {
        RedisServerProcess.Builder base = RedisServerProcess.builder().port(6390);
        base.port(6391).appendOnly(true);
        try (RedisServerProcess redis = base.build()) {
            assertThat(redis.port()).isEqualTo(6390);
            assertThat(redis.isRunning()).isFalse();
        }
    }

    private static List<ProcessHandle> descendantsMentioning(Path dataDir) {
        return ProcessHandle.current()
                .descendants()
                .filter(p -> commandLine(p).contains(dataDir.toString()))
                .toList();
    }

    private static String commandLine(ProcessHandle process) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }
}
