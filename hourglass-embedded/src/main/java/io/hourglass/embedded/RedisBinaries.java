package io.hourglass.embedded;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds a {@code redis-server} executable: an explicit one, the one on {@code PATH}, or the one shipped inside
 * {@code com.github.codemonstur:embedded-redis}.
 *
 * <p>All methods are static and thread-safe, and may be called from several JVMs at once.
 */
public final class RedisBinaries {

    /** Environment variable naming the {@code redis-server} executable to use, ahead of {@code PATH}. */
    public static final String ENV_VARIABLE = "HOURGLASS_REDIS_SERVER";

    private static final Pattern VERSION = Pattern.compile("\\bv=(\\d+(?:\\.\\d+)*)");
    private static final Map<Path, String> VERSIONS = new ConcurrentHashMap<>();

    private RedisBinaries() {}

    /**
     * The executable to use by default: the file named by the environment variable {@value #ENV_VARIABLE} if it is set,
     * else {@link #onPath()}, else {@link #embedded()}.
     *
     * @return an executable {@code redis-server}, never null
     * @throws IllegalStateException if {@value #ENV_VARIABLE} names no executable file, or if there is no
     *     {@code redis-server} on {@code PATH} and no embedded binary for this operating system and architecture
     * @throws UncheckedIOException if the embedded binary cannot be extracted
     */
    public static Path resolve() {
        String explicit = System.getenv(ENV_VARIABLE);
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit.trim());
            if (!isExecutableFile(path)) {
                throw new IllegalStateException(ENV_VARIABLE + "=" + explicit + " is not an executable file");
            }
            return path;
        }
        return onPath().orElseGet(RedisBinaries::embedded);
    }

    /**
     * The first {@code redis-server} executable in the directories of the {@code PATH} environment variable.
     *
     * @return the executable, or empty if there is none (or {@code PATH} is unset)
     */
    public static Optional<Path> onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(Pattern.quote(File.pathSeparator))) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "redis-server");
                if (isExecutableFile(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The {@code redis-server} shipped inside {@code com.github.codemonstur:embedded-redis} for this operating system
     * and architecture (Linux and macOS, amd64 and arm64), extracted on first use into a new directory under
     * {@code java.io.tmpdir} that only this user can read and write ({@code rwx------}, created atomically), reused for
     * the rest of this JVM's life and deleted at its exit. Its SHA-256 digest (of the bytes in the jar) is checked
     * before every run, so a binary that was changed after extraction is refused.
     *
     * @return the extracted executable, never null
     * @throws IllegalStateException if there is no embedded binary for this platform, or it is not on the classpath, or
     *     the extracted file was changed since
     * @throws UncheckedIOException if the binary cannot be written to the temporary directory
     */
    public static Path embedded() {
        return EmbeddedBinary.forPlatform(System.getProperty("os.name"), System.getProperty("os.arch"))
                .extractTo(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * The version a {@code redis-server} executable reports with {@code --version}. Answers are cached per path.
     *
     * @param binary the executable, not null
     * @return the version, e.g. {@code "7.0.15"}
     * @throws IllegalStateException if the executable cannot be run, or does not report a version within 10 s, or is an
     *     embedded binary that was changed after its extraction
     */
    public static String version(Path binary) {
        return VERSIONS.computeIfAbsent(binary.toAbsolutePath(), RedisBinaries::askVersion);
    }

    private static String askVersion(Path binary) {
        EmbeddedBinary.verify(binary);
        Path output = null;
        try {
            // A file rather than a pipe, so that a binary which hangs cannot block us beyond the timeout.
            output = Files.createTempFile("hourglass-redis-version", ".txt");
            Process process = new ProcessBuilder(binary.toString(), "--version")
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(binary + " --version did not finish within 10 s");
            }
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            Matcher matcher = VERSION.matcher(printed);
            if (!matcher.find()) {
                throw new IllegalStateException(binary + " --version printed no version: " + printed.strip());
            }
            return matcher.group(1);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + binary + " --version: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + binary + " --version", e);
        } finally {
            Directories.deleteQuietly(output);
        }
    }

    static boolean isExecutableFile(Path path) {
        return Files.isRegularFile(path) && Files.isExecutable(path);
    }
}
