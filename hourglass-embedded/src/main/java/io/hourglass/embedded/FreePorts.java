package io.hourglass.embedded;

import java.io.IOException;
import java.net.ServerSocket;

/** Ports that are free right now; another process may still take one before Redis binds it. */
final class FreePorts {

    private FreePorts() {}

    static int pick() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
