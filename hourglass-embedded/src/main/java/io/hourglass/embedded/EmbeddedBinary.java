package io.hourglass.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@code redis-server} binary inside the embedded-redis jar, and its extraction. The binary is written into a
 * directory of its own that {@link Files#createTempDirectory} creates atomically with owner-only permissions
 * ({@code rwx------}), never to a predictable path that another local user could have planted a file at; and its
 * SHA-256 digest, taken from the bytes of the jar resource, is checked again before every run ({@link #verify(Path)}),
 * so a binary changed after extraction is refused.
 */
final class EmbeddedBinary {

    private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_EXECUTABLE = PosixFilePermissions.fromString("r-x------");
    /** The extractions of this JVM: per base directory and resource, the file. */
    private static final Map<String, Path> EXTRACTED = new ConcurrentHashMap<>();
    /** Per extracted file, the SHA-256 digest of the jar resource it was written from, in hex. */
    private static final Map<Path, String> DIGESTS = new ConcurrentHashMap<>();

    private final String resource;

    private EmbeddedBinary(String resource) {
        this.resource = resource;
    }

    /** @throws IllegalStateException if embedded-redis ships no binary for this platform */
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
                + " (there are binaries for Linux and macOS on amd64 and arm64); install redis-server on the PATH or"
                + " set "
                + RedisBinaries.ENV_VARIABLE + " to its path");
    }

    String resource() {
        return resource;
    }

    /**
     * Extracts into a new owner-only directory under {@code base}, once per JVM and base; later calls return the same
     * file after checking its digest. A file that an earlier version of this class left at
     * {@code base/hourglass-redis-<resource>-<size>} (a predictable path) is ignored.
     *
     * @throws IllegalStateException if the resource is missing from the classpath, or the extracted file no longer has
     *     the resource's digest
     * @throws UncheckedIOException if it cannot be written out
     */
    Path extractTo(Path base) {
        String key = base.toAbsolutePath() + "\u0000" + resource;
        synchronized (EmbeddedBinary.class) {
            Path extracted = EXTRACTED.get(key);
            if (extracted != null) {
                verify(extracted);
                return extracted;
            }
            byte[] bytes = read();
            try {
                Path directory = Files.createTempDirectory(
                        base, "hourglass-redis-", PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
                Path target = directory.resolve("redis-server");
                Files.write(target, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                Files.setPosixFilePermissions(target, OWNER_ONLY_EXECUTABLE);
                // The JVM deletes in the reverse order of registration: the file first, then its directory.
                directory.toFile().deleteOnExit();
                target.toFile().deleteOnExit();
                DIGESTS.put(target, sha256(bytes));
                EXTRACTED.put(key, target);
                verify(target);
                return target;
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot extract " + resource + " under " + base + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Refuses to let a binary this class extracted run once it was changed: its SHA-256 digest must still be that of
     * the jar resource, its directory must be owner-only, and it must be a regular file, not a link. Does nothing for a
     * binary this class did not extract (one on the {@code PATH}, or named explicitly).
     *
     * @throws IllegalStateException naming the file and both digests when it was changed
     */
    static void verify(Path binary) {
        Path file = binary.toAbsolutePath();
        String expected = DIGESTS.get(file);
        if (expected == null) {
            return;
        }
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalStateException("refusing to run the embedded redis-server " + file
                        + ": it is no longer a regular file (replaced after extraction)");
            }
            Set<PosixFilePermission> directoryPermissions = Files.getPosixFilePermissions(file.getParent());
            if (!directoryPermissions.equals(OWNER_ONLY_DIRECTORY)) {
                throw new IllegalStateException("refusing to run the embedded redis-server " + file
                        + ": its directory is no longer owner-only ("
                        + PosixFilePermissions.toString(directoryPermissions)
                        + ")");
            }
            String actual = sha256(Files.readAllBytes(file));
            if (!actual.equals(expected)) {
                throw new IllegalStateException("refusing to run the embedded redis-server " + file
                        + ": it was modified after extraction (SHA-256 " + actual + ", expected " + expected
                        + " from the jar)");
            }
        } catch (IOException e) {
            throw new IllegalStateException(
                    "refusing to run the embedded redis-server " + file + ": cannot check it: " + e.getMessage(), e);
        }
    }

    private byte[] read() {
        URL url = EmbeddedBinary.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IllegalStateException(
                    resource + " is not on the classpath: is com.github.codemonstur:embedded-redis"
                            + " a dependency? Alternatively install redis-server on the PATH or set "
                            + RedisBinaries.ENV_VARIABLE);
        }
        try (InputStream in = url.openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource + " from the classpath: " + e.getMessage(), e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
