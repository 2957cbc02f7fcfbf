package io.hourglass.testkit.spring;

import io.hourglass.embedded.RedisServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one {@code redis-server} of the JVM's {@link EmbeddedRedis} contexts, counted by its users: started by the first,
 * stopped when the last lets go. Thread-safe.
 */
final class SharedRedisServer {
    private static RedisServerProcess server;
    private static int users;

    private SharedRedisServer() {}

    /**
     * @return the running server, started if no context uses one
     * @throws UncheckedIOException when it cannot be launched
     */
    static synchronized RedisServerProcess acquire() {
        if (server == null) {
            // The contexts stop it in their own order; a JVM-exit hook of its own could stop it under them.
            RedisServerProcess started =
                    RedisServerProcess.builder().closeAtJvmExit(false).build();
            try {
                started.start();
            } catch (IOException e) {
                throw new UncheckedIOException("@EmbeddedRedis: cannot start redis-server", e);
            }
            server = started;
        }
        users++;
        return server;
    }

    /** Lets go of the server; the last user stops it. */
    static synchronized void release() {
        if (users == 0) {
            return;
        }
        users--;
        if (users == 0 && server != null) {
            server.close();
            server = null;
        }
    }

    /** @return the running server, or null when no context uses one */
    static synchronized RedisServerProcess current() {
        return server;
    }
}
