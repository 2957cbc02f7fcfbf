package io.hourglass.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A worker or producer JVM started by the checker with the checker's own class path, or a server JVM started from its
 * runnable jar. Every child still alive is killed by a shutdown hook when the checker exits. A worker or producer also
 * ends itself when the checker dies (its standard input, a pipe held by the checker, reaches end-of-file; see
 * {@link ParentWatch}); a server does not, so a checker killed with {@code kill -9} leaves its servers running.
 */
final class ChildJvm {
    private static final Set<ChildJvm> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildJvm::killAll, "chaos-children-shutdown"));
    }

    private final String name;
    private final Process process;
    private final Path console;

    private ChildJvm(String name, Process process, Path console) {
        this.name = name;
        this.process = process;
        this.console = console;
    }

    /** Starts {@code java -cp <this class path> mainClass args...}, its output appended to {@code console}. */
    static ChildJvm start(String name, Class<?> mainClass, List<String> args, Path console) {
        List<String> command = new ArrayList<>(List.of(
                javaCommand(),
                "-cp",
                System.getProperty("java.class.path"),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xss512k",
                mainClass.getName()));
        command.addAll(args);
        return launch(name, new ProcessBuilder(command), console);
    }

    /**
     * Starts {@code java jvmOptions... -jar jar args...} (a runnable jar such as the server's), its output appended to
     * {@code console}, without the checker's {@code HOURGLASS_*} environment variables, so that only {@code args}
     * configure it.
     */
    static ChildJvm startJar(String name, Path jar, List<String> jvmOptions, List<String> args, Path console) {
        List<String> command = new ArrayList<>();
        command.add(javaCommand());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(variable -> variable.startsWith("HOURGLASS_"));
        return launch(name, builder, console);
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static ChildJvm launch(String name, ProcessBuilder builder, Path console) {
        try {
            Process process = builder.redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                    .start();
            ChildJvm child = new ChildJvm(name, process, console);
            LIVE.add(child);
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** @return e.g. {@code worker-2} */
    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, as in a crash; returns once the process is gone. */
    void kill() {
        process.destroyForcibly();
        awaitExit(5_000);
        LIVE.remove(this);
    }

    /** SIGSTOP: the process keeps its connections and leases but does nothing until {@link #resume()}. */
    void pause() {
        Signals.send(pid(), "STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    void resume() {
        Signals.send(pid(), "CONT");
    }

    /** SIGKILL, as in a crash; returns the fault, of {@code kind}, once the process is gone. */
    Fault crash(FaultKind kind) {
        long start = System.currentTimeMillis();
        kill();
        return new Fault(kind, name, pid(), start, System.currentTimeMillis());
    }

    /** SIGSTOP for {@code durationMs}, then SIGCONT; returns the fault, of {@code kind}. */
    Fault pauseFor(FaultKind kind, long durationMs) throws InterruptedException {
        long start = System.currentTimeMillis();
        pause();
        try {
            Thread.sleep(durationMs);
        } finally {
            resume();
        }
        return new Fault(kind, name, pid(), start, System.currentTimeMillis());
    }

    /**
     * Waits until the process printed {@code text} (e.g. that it is ready).
     *
     * @throws IllegalStateException if it exits or does not print it in time
     */
    void awaitOutput(String text, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!says(text)) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(name + " did not print '" + text + "'; see " + console);
            }
            Thread.sleep(50);
        }
    }

    private boolean says(String text) {
        try {
            return Files.exists(console) && Files.readString(console).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends one line to the process's standard input. */
    void send(String line) {
        try {
            process.getOutputStream().write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            process.getOutputStream().flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot talk to " + name, e);
        }
    }

    /** Waits for the process to exit by itself. */
    boolean awaitExit(long timeoutMs) {
        try {
            return process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    int exitValue() {
        return process.exitValue();
    }

    /** Kills every child this JVM started that is still alive. */
    static void killAll() {
        for (ChildJvm child : LIVE) {
            child.process.destroyForcibly();
        }
        for (ChildJvm child : LIVE) {
            child.awaitExit(5_000);
        }
        LIVE.clear();
    }

    @Override
    public String toString() {
        return name + " (pid " + pid() + ")";
    }
}
