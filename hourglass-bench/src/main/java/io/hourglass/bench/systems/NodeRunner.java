package io.hourglass.bench.systems;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code node bench.mjs ...} in the BullMQ folder and parses the one JSON object it prints. Installs the folder's
 * packages first when {@code node_modules} lacks BullMQ, with {@code npm install} (at the versions of
 * {@code package-lock.json}).
 */
public final class NodeRunner {
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path folder;

    /** @param folder the folder holding {@code package.json} and {@code bench.mjs} */
    public NodeRunner(Path folder) {
        this.folder = folder;
    }

    /** @return the folder */
    public Path folder() {
        return folder;
    }

    /**
     * Checks for node and npm and installs the packages if needed.
     *
     * @return empty when BullMQ can run, else why not
     */
    public synchronized Optional<String> prepare() {
        if (!Files.isRegularFile(folder.resolve("bench.mjs"))) {
            return Optional.of("no bench.mjs in " + folder.toAbsolutePath());
        }
        try {
            Result version = exec(List.of("node", "--version"), Duration.ofSeconds(30));
            if (version.exit != 0) {
                return Optional.of("node --version failed: " + version.output);
            }
            if (Files.isRegularFile(folder.resolve("node_modules/bullmq/package.json"))) {
                return Optional.empty();
            }
            // npm install honours package-lock.json as npm ci does; npm ci itself refuses this lock file on npm 11,
            // which
            // wants entries for the other platforms' optional msgpackr-extract binaries.
            List<String> install = List.of("npm", "install", "--no-audit", "--no-fund");
            Result installed = exec(install, INSTALL_TIMEOUT);
            return installed.exit == 0
                    ? Optional.empty()
                    : Optional.of(String.join(" ", install) + " failed: " + tail(installed.output));
        } catch (IOException e) {
            return Optional.of("node/npm not usable: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /**
     * @param args workload and its options, after {@code node bench.mjs}
     * @param timeout longest run
     * @return the JSON it printed
     * @throws IOException when node fails or prints no JSON
     * @throws InterruptedException when interrupted
     */
    public JsonNode run(List<String> args, Duration timeout) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("node", "bench.mjs"));
        command.addAll(args);
        Result result = exec(command, timeout);
        if (result.exit != 0) {
            throw new IOException(String.join(" ", command) + " exited " + result.exit + ": " + tail(result.output));
        }
        String out = result.output.strip();
        int start = out.lastIndexOf("\n{");
        return JSON.readTree(start < 0 ? out : out.substring(start + 1));
    }

    private record Result(int exit, String output) {}

    private Result exec(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Path stderr = Files.createTempFile("hourglass-bench-node", ".log");
        try {
            Process process = new ProcessBuilder(command)
                    .directory(folder.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            Thread killOnExit = new Thread(process::destroyForcibly, "bench-node-reaper");
            Runtime.getRuntime().addShutdownHook(killOnExit);
            try {
                return await(process, command, timeout, stderr);
            } finally {
                process.destroyForcibly();
                try {
                    Runtime.getRuntime().removeShutdownHook(killOnExit);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs anyway
                }
            }
        } finally {
            Files.deleteIfExists(stderr);
        }
    }

    private static Result await(Process process, List<String> command, Duration timeout, Path stderr)
            throws IOException, InterruptedException {
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " timed out after " + timeout);
        }
        String out = stdout.join();
        String err = Files.readString(stderr);
        return new Result(process.exitValue(), process.exitValue() == 0 ? out : out + err);
    }

    private static String tail(String text) {
        return text.length() <= 2000 ? text : "…" + text.substring(text.length() - 2000);
    }
}
