package io.hourglass.bench;

import io.hourglass.embedded.RedisServerProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Describes where a run happened: CPUs, memory, CPU model, clock source, transparent huge pages, Java, Redis and
 * Node.js versions.
 */
final class MachineInfo {
    private MachineInfo() {}

    static String describe() {
        return String.join(
                "\n",
                "- CPUs (`nproc`): " + Runtime.getRuntime().availableProcessors(),
                "- Memory (MemTotal): " + memTotal(),
                "- CPU model: " + firstLine(Path.of("/proc/cpuinfo"), "model name"),
                // Redis times every command it runs, scripts' commands included (INFO commandstats): with a clock
                // source the vDSO cannot read (hpet, xen), each of those clock reads is a system call.
                "- Clock source: "
                        + wholeFile(Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource")),
                "- Transparent huge pages: " + wholeFile(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")),
                "- Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                "- Redis: " + redisVersion() + " (fresh `redis-server` per system and round, `save \"\"`, "
                        + "`appendonly no`, default `hz 10`)",
                "- Node.js: " + command("node", "--version"));
    }

    private static String memTotal() {
        String line = firstLine(Path.of("/proc/meminfo"), "MemTotal");
        try {
            long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
            return String.format(Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0);
        } catch (NumberFormatException e) {
            return line;
        }
    }

    private static String firstLine(Path file, String key) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(l -> l.startsWith(key))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String wholeFile(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String redisVersion() {
        try (RedisServerProcess redis = RedisServerProcess.builder().build()) {
            return redis.version() + " (" + redis.binary() + ")";
        } catch (RuntimeException e) {
            return "unknown: " + e.getMessage();
        }
    }

    private static String command(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "unavailable";
        } catch (IOException e) {
            return "unavailable";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unavailable";
        }
    }
}
