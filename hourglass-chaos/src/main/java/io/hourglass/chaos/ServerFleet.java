package io.hourglass.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code hourglass-server} processes of a scenario, each a child JVM running the server's jar on a port of its own
 * on 127.0.0.1, all on the scenario's Redis and namespace, with no API tokens ({@code --insecure}) and callbacks to
 * 127.0.0.1 allowed ({@code --callback-allow}). A killed server is replaced at once by a fresh process on the same
 * port, so producers keep their URLs.
 */
final class ServerFleet implements ProcessGroup, AutoCloseable {
    /** How long a server may take to answer {@code /readyz} after its start, on a busy machine. */
    private static final long READY_TIMEOUT_MS = 180_000;

    private final Path dir;
    private final Path jar;
    private final List<String> args;
    private final int[] ports;
    private final ChildJvm[] slots;
    private final int[] generations;
    private final List<ChildJvm> all = new ArrayList<>();
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /**
     * @param dir where each server's console output goes
     * @param options the run's options (servers, shards)
     * @param redisUri the scenario's Redis
     * @throws IllegalArgumentException when the server's jar is not there
     */
    ServerFleet(Path dir, ChaosOptions options, String redisUri) {
        ServerOptions servers = options.servers();
        if (!Files.isRegularFile(servers.jar())) {
            throw new IllegalArgumentException(
                    "server-jar: no file " + servers.jar().toAbsolutePath()
                            + "; build it with ./mvnw -pl hourglass-server -am package -DskipTests");
        }
        this.dir = dir;
        this.jar = servers.jar();
        List<String> common = new ArrayList<>(List.of(
                "--redis",
                redisUri,
                "--insecure",
                "--bind",
                "127.0.0.1",
                "--namespace",
                "chaos",
                "--shards",
                Integer.toString(options.shards()),
                "--callback-allow",
                "127.0.0.1"));
        if (servers.idempotencyWindow() != null) {
            common.addAll(List.of("--idempotency-window", servers.idempotencyWindow()));
        }
        this.args = List.copyOf(common);
        this.ports = new int[servers.count()];
        this.slots = new ChildJvm[servers.count()];
        this.generations = new int[servers.count()];
        for (int i = 0; i < ports.length; i++) {
            ports[i] = freePort();
        }
    }

    /** Starts every server and waits until each answers {@code /readyz}. */
    synchronized void startAll() throws InterruptedException {
        for (int i = 0; i < slots.length; i++) {
            slots[i] = launch(i);
        }
        for (int i = 0; i < slots.length; i++) {
            awaitReady(i);
        }
    }

    /** @return each server's base URL, e.g. {@code http://127.0.0.1:41234} */
    List<URI> urls() {
        List<URI> urls = new ArrayList<>();
        for (int port : ports) {
            urls.add(URI.create("http://127.0.0.1:" + port));
        }
        return urls;
    }

    /**
     * SIGKILL of the server, then a fresh one on its port; returns once that one is ready. The fault ends with the
     * kill: the other servers serve meanwhile.
     */
    @Override
    public synchronized Fault killAndReplace(int index) throws InterruptedException {
        Fault fault = slots[index].crash(FaultKind.SERVER_KILL);
        slots[index] = launch(index);
        awaitReady(index);
        return fault;
    }

    @Override
    public synchronized ChildJvm process(int index) {
        return slots[index];
    }

    @Override
    public FaultKind pauseKind() {
        return FaultKind.SERVER_PAUSE;
    }

    private ChildJvm launch(int index) {
        String name = "server-" + index + "-g" + generations[index]++;
        List<String> serverArgs = new ArrayList<>(args);
        serverArgs.addAll(List.of("--port", Integer.toString(ports[index])));
        ChildJvm server = ChildJvm.startJar(
                name,
                jar,
                List.of(
                        "-Xmx512m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        // slow callbacks hold a slot each for longer than the lease
                        "-Dhourglass.callback-delivery.concurrency=64"),
                serverArgs,
                dir.resolve(name + ".console"));
        all.add(server);
        return server;
    }

    private void awaitReady(int index) throws InterruptedException {
        ChildJvm server = slots[index];
        HttpRequest readyz = HttpRequest.newBuilder(urls().get(index).resolve("/readyz"))
                .timeout(Duration.ofSeconds(2))
                .build();
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        while (true) {
            try {
                if (http.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!server.isAlive() || System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(
                        server + " did not become ready; see " + dir.resolve(server.name() + ".console"));
            }
            Thread.sleep(250);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    @Override
    public synchronized void close() {
        for (ChildJvm server : all) {
            if (server.isAlive()) {
                server.kill();
            }
        }
    }
}
