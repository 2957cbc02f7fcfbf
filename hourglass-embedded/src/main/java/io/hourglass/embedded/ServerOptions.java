package io.hourglass.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The settings of one redis-server, as collected by {@link RedisServerProcess.Builder}.
 *
 * @param binary null for {@link RedisBinaries#resolve()}
 * @param port 0 to pick a free port at the first start
 * @param bindAddresses one or more addresses, in Redis's {@code bind} syntax
 * @param dataDir null for a fresh temporary directory
 * @param directives extra config directives, each a name followed by its values
 * @param closeAtJvmExit whether the shared shutdown hook closes the process when the JVM exits
 * @param password the password of the default user ({@code requirepass}), or null for none
 */
record ServerOptions(
        Path binary,
        int port,
        List<String> bindAddresses,
        Path dataDir,
        boolean appendOnly,
        String appendFsync,
        List<List<String>> directives,
        boolean watchParent,
        Duration startupTimeout,
        boolean closeAtJvmExit,
        boolean ownSession,
        String password) {

    static final String LOG_FILE = "redis.log";
    /** The config file with {@code requirepass}, read through {@code include}: a command line is visible to all. */
    static final String AUTH_FILE = "redis-auth.conf";
    /** How far above its port a cluster node's bus listens when {@code cluster-port} is not set. */
    static final int CLUSTER_BUS_OFFSET = 10_000;

    static final ServerOptions DEFAULTS = new ServerOptions(
            null,
            0,
            List.of("127.0.0.1"),
            null,
            false,
            "everysec",
            List.of(),
            true,
            Duration.ofSeconds(10),
            true,
            false,
            null);

    ServerOptions {
        bindAddresses = List.copyOf(bindAddresses);
        directives = directives.stream().map(List::copyOf).toList();
    }

    /**
     * @param change sets one or more fields of a mutable copy of these options
     * @return new options: these, with the change
     */
    ServerOptions with(Consumer<Draft> change) {
        Draft draft = new Draft(this);
        change.accept(draft);
        return new ServerOptions(
                draft.binary,
                draft.port,
                draft.bindAddresses,
                draft.dataDir,
                draft.appendOnly,
                draft.appendFsync,
                draft.directives,
                draft.watchParent,
                draft.startupTimeout,
                draft.closeAtJvmExit,
                draft.ownSession,
                draft.password);
    }

    /** The fields of a {@link ServerOptions}, settable, so that each builder method names only the one it sets. */
    static final class Draft {
        Path binary;
        int port;
        List<String> bindAddresses;
        Path dataDir;
        boolean appendOnly;
        String appendFsync;
        List<List<String>> directives;
        boolean watchParent;
        Duration startupTimeout;
        boolean closeAtJvmExit;
        boolean ownSession;
        String password;

        private Draft(ServerOptions o) {
            binary = o.binary;
            port = o.port;
            bindAddresses = o.bindAddresses;
            dataDir = o.dataDir;
            appendOnly = o.appendOnly;
            appendFsync = o.appendFsync;
            directives = o.directives;
            watchParent = o.watchParent;
            startupTimeout = o.startupTimeout;
            closeAtJvmExit = o.closeAtJvmExit;
            ownSession = o.ownSession;
            password = o.password;
        }
    }

    /**
     * The highest port Redis can serve on with these options: a cluster node also listens on its port + 10,000 (the
     * cluster bus) unless {@code cluster-port} names another, and refuses to start on a port above 55,535. Linux hands
     * a socket with {@code SO_REUSEADDR}, as {@code ServerSocket} binds, a port from the lower half of its ephemeral
     * range (32768-46883 of the default 32768-60999), but the IANA range 49152-65535 that macOS and Windows use reaches
     * above the bound in its lower half too.
     */
    int highestPort() {
        boolean cluster = false;
        boolean busPortGiven = false;
        for (List<String> directive : directives) {
            String name = directive.get(0).toLowerCase(Locale.ROOT);
            if (name.equals("cluster-enabled") && directive.size() > 1) {
                cluster = directive.get(1).equalsIgnoreCase("yes");
            } else if (name.equals("cluster-port") && directive.size() > 1) {
                busPortGiven = !directive.get(1).equals("0");
            }
        }
        return cluster && !busPortGiven ? FreePorts.HIGHEST_PORT - CLUSTER_BUS_OFFSET : FreePorts.HIGHEST_PORT;
    }

    /**
     * The redis-server command line. Every value is a token of its own: Redis quotes each token when it turns the
     * command line into config lines, so paths with spaces are safe, while a directive with several values (e.g.
     * {@code save 900 1}) needs them as separate tokens.
     */
    List<String> command(Path binary, int port, Path dataDir) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        add(command, "port", Integer.toString(port));
        add(command, "bind", bindAddresses.toArray(String[]::new));
        add(command, "dir", dataDir.toString());
        add(command, "pidfile", PidFile.in(dataDir).toString());
        add(command, "logfile", dataDir.resolve(LOG_FILE).toString());
        add(command, "daemonize", "no");
        add(command, "protected-mode", "no");
        add(command, "save", "");
        add(command, "appendonly", appendOnly ? "yes" : "no");
        add(command, "appendfsync", appendFsync);
        if (password != null) {
            add(command, "include", dataDir.resolve(AUTH_FILE).toString());
        }
        // Last, so that they override the defaults above (e.g. save, protected-mode).
        for (List<String> directive : directives) {
            add(
                    command,
                    directive.get(0),
                    directive.subList(1, directive.size()).toArray(String[]::new));
        }
        return command;
    }

    /** @return the {@code toString} of the record, without the password */
    @Override
    public String toString() {
        return "ServerOptions[port=" + port + ", bind=" + bindAddresses + ", dataDir=" + dataDir + ", password="
                + (password == null ? "none" : "****") + "]";
    }

    private static void add(List<String> command, String name, String... values) {
        command.add("--" + name);
        command.addAll(List.of(values));
    }
}
