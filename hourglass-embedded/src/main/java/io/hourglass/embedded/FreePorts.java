package io.hourglass.embedded;

import java.io.IOException;
import java.net.ServerSocket;

/** Ports that are free right now; another process may still take one before Redis binds it. */
final class FreePorts {
    /** Highest port there is. */
    static final int HIGHEST_PORT = 65_535;
    /** Draws of a free port at most {@link #pick(int)} makes before it gives up on finding one low enough. */
    static final int DRAWS = 100;

    private FreePorts() {}

    static int pick() throws IOException {
        return pick(HIGHEST_PORT);
    }

    /**
     * @param highest the highest port the caller can use, e.g. a Redis Cluster node's: its bus listens 10,000 higher
     * @return a free port no higher than {@code highest}
     * @throws IOException when none of {@link #DRAWS} free ports the system gave was low enough
     */
    static int pick(int highest) throws IOException {
        for (int draw = 0; draw < DRAWS; draw++) {
            try (ServerSocket socket = new ServerSocket(0)) {
                if (socket.getLocalPort() <= highest) {
                    return socket.getLocalPort();
                }
            }
        }
        throw new IOException("none of " + DRAWS + " free ports the system gave was at most " + highest
                + " (see its ephemeral port range, on Linux /proc/sys/net/ipv4/ip_local_port_range)");
    }
}
