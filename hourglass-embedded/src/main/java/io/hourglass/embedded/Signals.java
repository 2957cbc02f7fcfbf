package io.hourglass.embedded;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Signals to processes that are not necessarily children of this JVM, and waiting for them to exit. */
final class Signals {

    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private Signals() {}

    /**
     * Sends a signal with {@code kill(1)}: {@link ProcessHandle} can only send TERM and KILL.
     *
     * @param signal a signal name without the {@code SIG} prefix, e.g. {@code STOP}
     * @throws IOException if kill cannot be run or reports failure (e.g. the process is gone)
     */
    static void send(long pid, String signal) throws IOException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IOException("kill -" + signal + " " + pid + " did not finish within 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending SIG" + signal + " to " + pid, e);
        }
        if (kill.exitValue() != 0) {
            throw new IOException("kill -" + signal + " " + pid + " failed with exit code " + kill.exitValue());
        }
    }

    /**
     * SIGTERM, then SIGKILL if the process is still alive after {@code grace}.
     *
     * @return true if the process had to be killed
     */
    static boolean terminate(ProcessHandle process, Duration grace) {
        process.destroy();
        if (awaitExit(process, grace)) {
            return false;
        }
        kill(process);
        return true;
    }

    /** SIGKILL, and wait until the process is gone. */
    static void kill(ProcessHandle process) {
        process.destroyForcibly();
        awaitExit(process, KILL_WAIT);
    }

    /**
     * Polls rather than using {@link ProcessHandle#onExit()}, which for a process that is not our child polls too, but
     * with a coarse interval.
     *
     * @return true if the process exited within the timeout; false on timeout or interruption (the interrupt flag is
     *     kept)
     */
    static boolean awaitExit(ProcessHandle process, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (process.isAlive()) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !process.isAlive();
            }
        }
        return true;
    }
}
