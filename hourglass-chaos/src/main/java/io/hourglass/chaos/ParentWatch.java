package io.hourglass.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * The child side of the checker's pipe to a worker or producer process. The checker holds the write end of the child's
 * standard input: end-of-file on it means the checker exited or was killed, and the child halts; a line {@value #GO}
 * tells a producer to start scheduling.
 */
final class ParentWatch {
    /** The line that releases {@link #awaitGo()}. */
    static final String GO = "go";

    private static final CountDownLatch GO_RECEIVED = new CountDownLatch(1);

    private ParentWatch() {}

    /** Starts a daemon thread that reads standard input and halts this JVM at end-of-file. */
    static void haltWhenParentExits() {
        Thread watcher = new Thread(
                () -> {
                    try (BufferedReader in =
                            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                        for (String line = in.readLine(); line != null; line = in.readLine()) {
                            if (line.equals(GO)) {
                                GO_RECEIVED.countDown();
                            }
                        }
                    } catch (IOException e) {
                        // a broken pipe means the same as end-of-file
                    }
                    Runtime.getRuntime().halt(0);
                },
                "parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Blocks until the checker sent {@value #GO}. */
    static void awaitGo() throws InterruptedException {
        GO_RECEIVED.await();
    }
}
