package io.hourglass.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
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
        assertThat(embedded.getParent().getFileName().toString()).startsWith("hourglass-redis-");
        assertThat(RedisBinaries.embedded()).isEqualTo(embedded);

        try (RedisServerProcess redis =
                RedisServerProcess.builder().binary(embedded).build().start()) {
            assertThat(redis.version()).startsWith("6.2");
            assertThat(Resp.call(redis, "PING")).isEqualTo("+PONG");
            assertThat(Resp.call(redis, "INFO", "server")).contains("redis_version:6.2");
        }
    }

    @Test
    void concurrentExtractionsAllYieldOneCompleteExecutableInAnOwnerOnlyDirectory(@TempDir Path dir) throws Exception {
        EmbeddedBinary binary = platformBinary();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Path>> extractions = IntStream.range(0, 4)
                    .<Callable<Path>>mapToObj(i -> () -> binary.extractTo(dir))
                    .toList();
            List<Path> paths = pool.invokeAll(extractions).stream()
                    .map(RedisBinariesIntegrationTests::get)
                    .toList();

            assertThat(paths).hasSize(4).containsOnly(paths.get(0));
            Path extracted = paths.get(0);
            assertThat(extracted).isExecutable();
            assertThat(extracted.getParent().getParent()).isEqualTo(dir);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(extracted.getParent())))
                    .isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(extracted)))
                    .isEqualTo("r-x------");
            assertThat(EmbeddedBinary.sha256(Files.readAllBytes(extracted))).isEqualTo(resourceDigest(binary));
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files).containsExactly(extracted.getParent());
            }
            assertThat(RedisBinaries.version(extracted)).startsWith("6.2");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExecutablePlantedAtThePredictablePathOfEarlierVersionsIsNeverRun(@TempDir Path dir) throws Exception {
        EmbeddedBinary binary = platformBinary();
        long size = resourceBytes(binary).length;
        // What another local user could leave in a shared temporary directory: a script of the expected size.
        Path marker = dir.resolve("planted-binary-ran");
        Path planted = dir.resolve("hourglass-redis-" + binary.resource() + "-" + size);
        String script = "#!/bin/sh\ntouch '" + marker + "'\necho 'Redis server v=6.2.6'\nexit 0\n#";
        byte[] padded = Arrays.copyOf(script.getBytes(StandardCharsets.US_ASCII), Math.toIntExact(size));
        Arrays.fill(padded, script.length(), padded.length, (byte) 'x');
        Files.write(planted, padded);
        Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rwxrwxrwx"));

        Path extracted = binary.extractTo(dir);
        assertThat(extracted).isNotEqualTo(planted);
        try (RedisServerProcess redis =
                RedisServerProcess.builder().binary(extracted).build().start()) {
            assertThat(Resp.call(redis, "PING")).isEqualTo("+PONG");
        }
        assertThat(marker).doesNotExist();
    }

    @Test
    void aBinaryChangedAfterExtractionIsRefusedWithAClearError(@TempDir Path dir) throws Exception {
        EmbeddedBinary binary = platformBinary();
        Path extracted = binary.extractTo(dir);
        RedisServerProcess redis =
                RedisServerProcess.builder().binary(extracted).build();
        Files.setPosixFilePermissions(extracted, PosixFilePermissions.fromString("rwx------"));
        byte[] tampered = Files.readAllBytes(extracted);
        tampered[tampered.length / 2] ^= 1;
        Files.write(extracted, tampered);

        assertThatThrownBy(redis::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("refusing to run the embedded redis-server " + extracted)
                .hasMessageContaining("modified after extraction")
                .hasMessageContaining(resourceDigest(binary));
        assertThat(redis.isRunning()).isFalse();
        assertThatThrownBy(() -> binary.extractTo(dir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("modified after extraction");
        redis.close();
    }

    private static EmbeddedBinary platformBinary() {
        return EmbeddedBinary.forPlatform(System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    private static byte[] resourceBytes(EmbeddedBinary binary) throws IOException {
        try (InputStream in = EmbeddedBinary.class.getClassLoader().getResourceAsStream(binary.resource())) {
            return in.readAllBytes();
        }
    }

    private static String resourceDigest(EmbeddedBinary binary) throws IOException {
        return HexFormat.of().formatHex(sha256().digest(resourceBytes(binary)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
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
