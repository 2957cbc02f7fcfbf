package io.hourglass.bench.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs {@code redis-benchmark -q -t set,get} against a port and reads the requests per second of each test. */
public final class RedisBenchmark {
    private static final Pattern RESULT = Pattern.compile("([A-Z]+): ([0-9.]+) requests per second");

    private RedisBenchmark() {}

    /**
     * @param port the Redis port
     * @param requests {@code -n}
     * @param pipeline {@code -P}; 1 for none
     * @return requests per second by test name ("SET", "GET")
     * @throws IOException when redis-benchmark cannot be run or fails
     * @throws InterruptedException when interrupted while it runs
     */
    public static Map<String, Double> run(int port, int requests, int pipeline)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                "redis-benchmark", "-q", "-t", "set,get", "-n", String.valueOf(requests), "-p", String.valueOf(port)));
        if (pipeline > 1) {
            command.addAll(List.of("-P", String.valueOf(pipeline)));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException("redis-benchmark failed: " + output);
        }
        Map<String, Double> result = new LinkedHashMap<>();
        // -q prints progress lines ending in \r and one final line per test.
        Matcher m = RESULT.matcher(output.replace('\r', '\n'));
        while (m.find()) {
            result.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        if (result.isEmpty()) {
            throw new IOException("no figures in redis-benchmark output: " + output);
        }
        return result;
    }
}
