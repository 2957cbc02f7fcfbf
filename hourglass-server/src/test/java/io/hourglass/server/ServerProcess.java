package io.hourglass.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server run as a child JVM, as in production ({@code HourglassServer.main} with command-line flags), on the test
 * class path. Its output is drained continuously and kept for failure messages.
 */
final class ServerProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("Hourglass server listening on port (\\d+)");

    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();

    private ServerProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::drain, "server-process-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code HourglassServer --port 0 <args>} with no {@code HOURGLASS_*} variables. */
    static ServerProcess start(String... args) throws IOException {
        return startWithJvmOptions(List.of(), args);
    }

    /** As {@link #start}, with options for the JVM, e.g. {@code -Dlogging.level.org.apache=INFO}. */
    static ServerProcess startWithJvmOptions(List<String> jvmOptions, String... args) throws IOException {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(
                List.of("-cp", System.getProperty("java.class.path"), HourglassServer.class.getName(), "--port", "0"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("HOURGLASS_"));
        return new ServerProcess(builder.start());
    }

    private void drain() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                output.append(line).append('\n');
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    port.complete(Integer.parseInt(m.group(1)));
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
        port.completeExceptionally(new IllegalStateException("server exited before listening:\n" + output));
    }

    /** @return the port it announced, waiting up to {@code seconds} */
    int awaitPort(int seconds) throws Exception {
        try {
            return port.get(seconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("server did not announce its port within " + seconds + " s:\n" + output, e);
        }
    }

    /** @return the exit status, waiting up to {@code seconds} for the process to end on its own */
    int awaitExit(int seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("server still running after " + seconds + " s:\n" + output);
        }
        return process.exitValue();
    }

    long pid() {
        return process.pid();
    }

    String output() {
        return output.toString();
    }

    /** Kills the JVM with SIGKILL, as {@code kill -9}: no shutdown hook runs. */
    void killHard() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Sends SIGTERM and waits for the graceful shutdown; SIGKILL after {@code seconds}. */
    int terminate(int seconds) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                terminate(20);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
