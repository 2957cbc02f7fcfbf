package io.hourglass.embedded;

import java.util.ArrayList;
import java.util.List;

/**
 * Wraps a command in a small {@code /bin/sh} script that terminates it when this JVM is gone, even after {@code kill
 * -9}, when no shutdown hook runs. The command stays a process of its own (the script does not exec it), so signals for
 * pause and kill go to Redis itself, whose pid comes from its pid file.
 */
final class Watchdog {

    /**
     * The watcher subshell checks the JVM once a second and sends SIGTERM to the command when it is gone. The main
     * shell waits for the command, forwarding TERM/INT/HUP to it, and exits with the command's status; it loops because
     * a forwarded signal interrupts {@code wait} while the command is still shutting down.
     */
    private static final String SCRIPT = String.join(
            "\n",
            "jvm=$1; shift",
            "\"$@\" &",
            "child=$!",
            "trap 'kill -TERM \"$child\" 2>/dev/null' TERM INT HUP",
            "( while kill -0 \"$jvm\" 2>/dev/null; do sleep 1; done; kill -TERM \"$child\" 2>/dev/null ) &",
            "watcher=$!",
            "while :; do",
            "  wait \"$child\"; status=$?",
            "  kill -0 \"$child\" 2>/dev/null || break",
            "done",
            "kill \"$watcher\" 2>/dev/null",
            "exit \"$status\"");

    private Watchdog() {}

    /** The command line that runs {@code command} and terminates it when the process {@code ownerPid} is gone. */
    static List<String> wrap(List<String> command, long ownerPid) {
        List<String> wrapped =
                new ArrayList<>(List.of("/bin/sh", "-c", SCRIPT, "hourglass-redis-watchdog", Long.toString(ownerPid)));
        wrapped.addAll(command);
        return wrapped;
    }
}
