package io.hourglass.server.embedded;

import io.hourglass.embedded.RedisServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code redis-server} this process starts when no Redis is configured (the development default). It listens on
 * 127.0.0.1 only and asks for a password that is generated once per data folder and kept there in
 * {@value #PASSWORD_FILE}, readable by the owner only (never logged, never on a command line); the data folder itself
 * is owner-only ({@code rwx------}), so the append-only file is too. It persists every write to its append-only file
 * before answering ({@code appendfsync always}), so a {@code kill -9} of the server loses no accepted job; it dies with
 * this JVM even on {@code kill -9} (watchdog), and a start on the same data dir first ends any Redis an earlier run
 * left.
 */
public final class EmbeddedRedis implements AutoCloseable {
    /** The file in the data folder that holds the password of the embedded Redis. */
    public static final String PASSWORD_FILE = "redis.password";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
    private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final int PASSWORD_BYTES = 32;

    private final RedisServerProcess process;
    private final Path dataDir;
    private final String password;

    private EmbeddedRedis(RedisServerProcess process, Path dataDir, String password) {
        this.process = process;
        this.dataDir = dataDir;
        this.password = password;
    }

    /**
     * Starts a {@code redis-server} on a free port of 127.0.0.1 with append-only persistence in {@code dataDir}, and a
     * password (see the class comment).
     *
     * @param dataDir the data folder, created owner-only if missing, else made owner-only; reused across restarts
     * @return the running Redis; closing it stops Redis gracefully
     * @throws UncheckedIOException when Redis cannot be started, or the data folder or password file cannot be set up
     * @throws IllegalStateException when the data folder belongs to another user
     */
    public static EmbeddedRedis start(Path dataDir) {
        log.warn(
                "No Redis configured (--redis / HOURGLASS_REDIS): starting an embedded Redis on 127.0.0.1 with its data"
                        + " in {}. This is the development default; use a managed Redis in production.",
                dataDir.toAbsolutePath());
        try {
            ownerOnlyDirectory(dataDir);
            String password = password(dataDir.resolve(PASSWORD_FILE));
            RedisServerProcess redis = RedisServerProcess.builder()
                    .port(0)
                    .bind("127.0.0.1")
                    .password(password)
                    .dataDir(dataDir)
                    .appendOnly(true)
                    .appendFsync("always")
                    .watchParent(true)
                    // Spring closes it after the Hourglass bean (which depends on it); a JVM hook could stop it under
                    // Hourglass.
                    .closeAtJvmExit(false)
                    .start();
            return new EmbeddedRedis(redis, dataDir, password);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded Redis in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /** Creates the folder owner-only, or makes an existing one of ours owner-only; refuses another user's. */
    private static void ownerOnlyDirectory(Path dataDir) throws IOException {
        if (!Files.exists(dataDir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dataDir.toAbsolutePath().getParent());
            Files.createDirectory(dataDir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
        }
        requireOwnedByUs(dataDir);
        Files.setPosixFilePermissions(dataDir, OWNER_ONLY_DIRECTORY);
    }

    /**
     * @return the password kept in {@code file}, generated (32 random bytes, base64url) and written owner-only when the
     *     file does not exist yet
     */
    private static String password(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] random = new byte[PASSWORD_BYTES];
            new SecureRandom().nextBytes(random);
            String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
            Files.writeString(file, generated + "\n", StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
            return generated;
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException(file + ": the embedded Redis's password file must be a regular file");
        }
        requireOwnedByUs(file);
        Files.setPosixFilePermissions(file, OWNER_ONLY_FILE);
        String kept = Files.readString(file, StandardCharsets.US_ASCII).strip();
        if (!kept.matches("[A-Za-z0-9_-]{16,256}")) {
            throw new IllegalStateException(
                    file + ": not a password this server wrote (delete the file to have a new" + " one generated)");
        }
        return kept;
    }

    private static void requireOwnedByUs(Path path) throws IOException {
        String owner = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).getName();
        String us = System.getProperty("user.name");
        if (!owner.equals(us)) {
            throw new IllegalStateException(path + " belongs to " + owner + ", not to " + us
                    + " who runs the server: refusing to use another user's embedded-Redis data");
        }
    }

    /** @return the URI to connect to, without the password (see {@link #password()}) */
    public String uri() {
        return process.uri();
    }

    /** @return the password Redis asks for; a secret, never to be logged */
    public String password() {
        return password;
    }

    /** @return the data folder */
    public Path dataDir() {
        return dataDir;
    }

    /** Stops Redis gracefully, after flushing its append-only file. */
    @Override
    public void close() {
        process.close();
    }
}
