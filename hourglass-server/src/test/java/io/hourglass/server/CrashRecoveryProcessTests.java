package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The development default (no --redis: an embedded Redis with append-only persistence) survives {@code kill -9} of the
 * server: no Redis is left running, and after a restart on the same data dir every accepted job is still delivered,
 * none before its due time.
 */
class CrashRecoveryProcessTests {
    private static final int JOBS = 50;

    @TempDir
    Path dataDir;

    @Test
    void aKilledServerLeavesNoRedisBehindAndLosesNoAcceptedJob() throws Exception {
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            Map<String, Instant> dueAt = new HashMap<>();
            Set<Long> redisPids;
            try (ServerProcess first =
                    ServerProcess.start("--data-dir", dataDir.toString(), "--callback-allow", "127.0.0.1")) {
                Api api = new Api(first.awaitPort(30));
                assertThat(first.output())
                        .contains("WARN")
                        .contains("development default")
                        .contains("The HTTP API is unauthenticated");
                long scheduledFrom = System.nanoTime();
                for (int i = 0; i < JOBS; i++) {
                    String id = "crash-" + i;
                    var created = api.post(
                            "/v1/topics/crash/jobs",
                            json(
                                    "id",
                                    id,
                                    "delayMs",
                                    2000 + i * 40,
                                    "payload",
                                    Map.of("n", i),
                                    "callbackUrl",
                                    receiver.url("/crash")));
                    assertThat(created.status()).as(created.raw().body()).isEqualTo(201);
                    dueAt.put(id, Instant.parse(created.body().get("dueAt").asText()));
                }
                redisPids = processesOf(dataDir);
                assertThat(redisPids).as("redis-server and its watchdog").isNotEmpty();
                Thread.sleep(Math.max(0, 1000 - (System.nanoTime() - scheduledFrom) / 1_000_000));

                first.killHard();
                assertThat(receiver.calls())
                        .as("callbacks before the kill (all jobs are due later)")
                        .isEmpty();
            }

            await().atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> {
                        assertThat(redisPids.stream().filter(pid -> ProcessHandle.of(pid)
                                        .map(ProcessHandle::isAlive)
                                        .orElse(false)))
                                .as("processes of the killed server still alive")
                                .isEmpty();
                        assertThat(processesOf(dataDir))
                                .as("processes still using " + dataDir)
                                .isEmpty();
                    });

            try (ServerProcess second =
                    ServerProcess.start("--data-dir", dataDir.toString(), "--callback-allow", "127.0.0.1")) {
                second.awaitPort(30);
                await().atMost(Duration.ofSeconds(20))
                        .until(() -> receiver.calls().stream()
                                        .map(CallbackReceiver.Call::jobId)
                                        .collect(Collectors.toSet())
                                        .size()
                                == JOBS);

                for (CallbackReceiver.Call call : receiver.calls()) {
                    assertThat(call.dueAt()).as(call.jobId()).isEqualTo(dueAt.get(call.jobId()));
                    assertThat(call.receivedAt()).as(call.jobId()).isAfterOrEqualTo(call.dueAt());
                }
                assertThat(second.terminate(20))
                        .as("exit status after SIGTERM: " + second.output())
                        .isIn(0, 143);
            }
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> processesOf(dataDir).isEmpty());
        }
    }

    /** @return the live processes whose command line names the data dir, plus the pid in its redis.pid */
    private static Set<Long> processesOf(Path dataDir) throws IOException {
        Set<Long> pids = new HashSet<>();
        String needle = dataDir.toAbsolutePath().toString();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .forEach(p -> {
                        try {
                            String cmdline =
                                    new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                            if (cmdline.contains(needle)) {
                                pids.add(Long.parseLong(p.getFileName().toString()));
                            }
                        } catch (IOException e) {
                            // the process ended meanwhile
                        }
                    });
        }
        Path pidFile = dataDir.resolve("redis.pid");
        if (Files.exists(pidFile)) {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                pids.add(pid);
            }
        }
        pids.remove(ProcessHandle.current().pid());
        return pids;
    }
}
