package io.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisBinariesIntegrationTests {

    @Test
    void resolvesABinaryThatReportsItsVersion() {
        Path binary = RedisBinaries.resolve();
        assertThat(binary).isExecutable();
        assertThat(RedisBinaries.version(binary)).matches("\\d+\\.\\d+\\.\\d+");
    }

    @Test
    void findsTheRedisServerOnThePath() {
        assumeThat(Files.isExecutable(Path.of("/usr/bin/redis-server"))).isTrue();
        assertThat(RedisBinaries.onPath())
                .hasValueSatisfying(p -> assertThat(p.getFileName()).hasToString("redis-server"));
    }

    @Test
    void theEmbeddedBinaryIsExtractedAndRunsEvenWithAnotherRedisOnThePath() throws Exception {
        Path embedded = RedisBinaries.embedded();
        assertThat(embedded).isExecutable();
        assertThat(embedded.getFileName().toString()).startsWith("hourglass-redis-redis-server-6.2");
        assertThat(RedisBinaries.embedded()).isEqualTo(embedded);

        try (RedisServerProcess redis =
                RedisServerProcess.builder().binary(embedded).build().start()) {
            assertThat(redis.version()).startsWith("6.2");
            assertThat(Resp.call(redis, "PING")).isEqualTo("+PONG");
            assertThat(Resp.call(redis, "INFO", "server")).contains("redis_version:6.2");
        }
    }

    @Test
    void concurrentExtractionsAllYieldOneCompleteExecutable(@TempDir Path dir) throws Exception {
        EmbeddedBinary binary =
                EmbeddedBinary.forPlatform(System.getProperty("os.name"), System.getProperty("os.arch"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Path>> extractions = IntStream.range(0, 4)
                    .<Callable<Path>>mapToObj(i -> () -> binary.extractTo(dir))
                    .toList();
            List<Path> paths = pool.invokeAll(extractions).stream()
                    .map(RedisBinariesIntegrationTests::get)
                    .toList();

            assertThat(paths).hasSize(4).containsOnly(paths.get(0));
            assertThat(paths.get(0)).isExecutable();
            assertThat(paths.get(0).getFileName().toString()).endsWith("-" + Files.size(paths.get(0)));
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files).containsExactly(paths.get(0));
            }
            assertThat(RedisBinaries.version(paths.get(0))).startsWith("6.2");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void mapsEachSupportedPlatformToItsResourceAndRefusesOthersClearly() {
        assertThat(EmbeddedBinary.forPlatform("Linux", "amd64").resource())
                .isEqualTo("redis-server-6.2.6-v5-linux-amd64");
        assertThat(EmbeddedBinary.forPlatform("Linux", "aarch64").resource())
                .isEqualTo("redis-server-6.2.7-linux-arm64");
        assertThat(EmbeddedBinary.forPlatform("Mac OS X", "x86_64").resource())
                .isEqualTo("redis-server-6.2.6-v5-darwin-amd64");
        assertThat(EmbeddedBinary.forPlatform("Mac OS X", "aarch64").resource())
                .isEqualTo("redis-server-6.2.6-v5-darwin-arm64");
        assertThatThrownBy(() -> EmbeddedBinary.forPlatform("Windows 11", "amd64"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Windows 11/amd64")
                .hasMessageContaining("install redis-server on the PATH or set HOURGLASS_REDIS_SERVER");
    }

    @Test
    void aBinaryThatIsNotRedisIsReportedByPath(@TempDir Path dir) {
        assertThatThrownBy(() -> RedisBinaries.version(Path.of("/bin/true")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/bin/true --version printed no version");
        assertThatThrownBy(() -> RedisBinaries.version(dir.resolve("missing")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot run");
    }

    private static <T> T get(Future<T> future) {
        try {
            return future.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
