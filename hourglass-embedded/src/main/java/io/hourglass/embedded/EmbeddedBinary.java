package io.hourglass.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/** One {@code redis-server} binary inside the embedded-redis jar, and its extraction to the temporary directory. */
final class EmbeddedBinary {

    private final String resource;

    private EmbeddedBinary(String resource) {
        this.resource = resource;
    }

    /**
     * @throws IllegalStateException if embedded-redis ships no binary for this platform
     */
    static EmbeddedBinary forPlatform(String osName, String osArch) {
        String os = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        String arch = osArch == null ? "" : osArch.toLowerCase(Locale.ROOT);
        boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        if (os.contains("linux") && amd64) {
            return new EmbeddedBinary("redis-server-6.2.6-v5-linux-amd64");
        }
        if (os.contains("linux") && arm64) {
            return new EmbeddedBinary("redis-server-6.2.7-linux-arm64");
        }
        if ((os.contains("mac") || os.contains("darwin")) && (amd64 || arm64)) {
            return new EmbeddedBinary("redis-server-6.2.6-v5-darwin-" + (amd64 ? "amd64" : "arm64"));
        }
        throw new IllegalStateException("no embedded redis-server for " + osName + "/" + osArch
                + " (there are binaries for Linux and macOS on amd64 and arm64); install redis-server on the PATH or set "
                + RedisBinaries.ENV_VARIABLE + " to its path");
    }

    String resource() {
        return resource;
    }

    /**
     * Extracts into {@code directory} unless a complete copy is there already.
     *
     * @throws IllegalStateException if the resource is missing from the classpath
     * @throws UncheckedIOException if it cannot be written out
     */
    Path extractTo(Path directory) {
        URL url = EmbeddedBinary.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IllegalStateException(
                    resource + " is not on the classpath: is com.github.codemonstur:embedded-redis"
                            + " a dependency? Alternatively install redis-server on the PATH or set "
                            + RedisBinaries.ENV_VARIABLE);
        }
        try {
            URLConnection connection = url.openConnection();
            try (InputStream in = connection.getInputStream()) {
                long size = connection.getContentLengthLong();
                Path target = directory.resolve("hourglass-redis-" + resource + "-" + size);
                synchronized (EmbeddedBinary.class) {
                    if (!RedisBinaries.isExecutableFile(target) || Files.size(target) != size) {
                        writeAtomically(in, target);
                    }
                }
                return target;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + resource + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every writer works on its own temporary file and renames it over the target, so another JVM extracting at the
     * same moment, or running the target already, only ever sees a complete binary.
     */
    private static void writeAtomically(InputStream in, Path target) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), target.getFileName() + "-", ".tmp");
        try {
            Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
            if (!temp.toFile().setExecutable(true, false)) {
                throw new IOException("cannot make " + temp + " executable");
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
