package io.hourglass.chaos;

import java.nio.file.Path;

/**
 * The settings of the scenarios that run {@code hourglass-server} processes ({@link Scenario#servers()}).
 *
 * @param jar the server's runnable jar ({@code hourglass-server/target/hourglass-server.jar} once built)
 * @param count server processes, all on the scenario's Redis, each delivering callbacks and serving the API
 * @param serverKills {@code kill -9} and restarts of a server
 * @param serverPauses SIGSTOP/SIGCONT of a server, each longer than the lease plus the producers' timeout
 * @param producerTimeoutMs how long a producer waits for the answer to one POST, in ms, before it retries
 * @param idempotencyWindow the servers' {@code --idempotency-window} (e.g. {@code 1h}, {@code 0} for off), or null for
 *     the server's default
 */
public record ServerOptions(
        Path jar, int count, int serverKills, int serverPauses, long producerTimeoutMs, String idempotencyWindow) {

    /** @return two servers, two kills and two pauses, a 5 s producer timeout, the server's default window */
    public static ServerOptions defaults() {
        return new ServerOptions(Path.of("hourglass-server", "target", "hourglass-server.jar"), 2, 2, 2, 5_000, null);
    }
}
