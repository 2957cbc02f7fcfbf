package io.hourglass.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A JVM of its own with the test's class path, for tests that pause or kill a process; its output read line by line.
 */
final class JavaProcess {
    private JavaProcess() {}

    /**
     * Starts {@code java -cp <the test's class path> <main> <args>}.
     *
     * @param onLine gets each line the process prints (stdout and stderr), on a daemon thread of its own
     * @return the process; the caller ends it
     */
    static Process start(Class<?> main, List<String> args, Consumer<String> onLine) {
        return start(main, List.of(), args, onLine);
    }

    /**
     * Starts {@code java <jvmOptions> -cp <the test's class path> <main> <args>}.
     *
     * @param jvmOptions options of the JVM, e.g. to start faster
     * @param onLine gets each line the process prints (stdout and stderr), on a daemon thread of its own
     * @return the process; the caller ends it
     */
    static Process start(Class<?> main, List<String> jvmOptions, List<String> args, Consumer<String> onLine) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + main.getSimpleName(), e);
        }
        Thread reader = new Thread(() -> {
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    onLine.accept(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        return process;
    }

    /** Sends the signal {@code name} ({@code STOP}, {@code CONT}, ...) to the process {@code pid} with {@code kill}. */
    static void signal(String name, long pid) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                .inheritIO()
                .start()
                .waitFor();
    }
}
