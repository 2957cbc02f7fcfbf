package io.hourglass.bench.redis;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Call counts per Redis command from {@code INFO commandstats}. Commands run inside scripts are counted too, so the
 * difference of two snapshots shows both round trips ({@code evalsha}, {@code eval}, plain commands) and the work
 * scripts do.
 *
 * @param calls command name (lower case, e.g. {@code evalsha}, {@code zadd}) to number of calls
 * @param scriptMicros µs Redis spent running scripts ({@code usec} of {@code evalsha}, {@code eval} and, where the
 *     scripts run as Redis Functions, {@code fcall}, which include the commands the scripts ran)
 * @param commandMicros µs Redis spent in every other command, those that scripts ran included (the bench's own
 *     excluded): for a system whose every command runs in a script, {@code scriptMicros - commandMicros} is the time in
 *     the Lua interpreter and the calls between it and Redis
 */
public record CommandStats(Map<String, Long> calls, long scriptMicros, long commandMicros) {
    private static final Set<String> SCRIPTS = Set.of("evalsha", "eval", "evalsha_ro", "eval_ro", "fcall", "fcall_ro");

    /** Commands the bench itself sends to watch Redis, left out of every count and time when read. */
    private static final Set<String> OWN = Set.of("info", "config|resetstat", "slowlog|get", "config");

    static CommandStats parse(String info) {
        Map<String, Long> calls = new TreeMap<>();
        long[] scriptMicros = new long[1];
        long[] commandMicros = new long[1];
        InfoSection.parse(info).fields().forEach((key, value) -> {
            String name = key.startsWith("cmdstat_") ? key.substring("cmdstat_".length()) : null;
            if (name != null && !OWN.contains(name)) {
                for (String part : value.split(",")) {
                    if (part.startsWith("calls=")) {
                        calls.put(name, Long.parseLong(part.substring("calls=".length())));
                    } else if (part.startsWith("usec=")) {
                        long micros = Long.parseLong(part.substring("usec=".length()));
                        if (SCRIPTS.contains(name)) {
                            scriptMicros[0] += micros;
                        } else {
                            commandMicros[0] += micros;
                        }
                    }
                }
            }
        });
        return new CommandStats(calls, scriptMicros[0], commandMicros[0]);
    }

    /**
     * @param earlier a snapshot taken before this one
     * @return the calls made between the two, without zero entries
     */
    public CommandStats since(CommandStats earlier) {
        Map<String, Long> delta = new TreeMap<>();
        calls.forEach((name, n) -> {
            long d = n - earlier.calls.getOrDefault(name, 0L);
            if (d > 0) {
                delta.put(name, d);
            }
        });
        return new CommandStats(delta, scriptMicros - earlier.scriptMicros, commandMicros - earlier.commandMicros);
    }

    /** @return all calls */
    public long total() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    /** @return calls of {@code evalsha}, {@code eval} and {@code fcall}: the script round trips */
    public long scriptCalls() {
        return SCRIPTS.stream().mapToLong(name -> calls.getOrDefault(name, 0L)).sum();
    }

    /**
     * @param jobs jobs the calls served
     * @param top how many commands
     * @return the most called commands with their calls per job, e.g. "evalsha 1.02, zadd 1.00"
     */
    public String topPerJob(long jobs, int top) {
        Map<String, Long> sorted = calls.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .limit(top)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
        return sorted.entrySet().stream()
                .map(e -> String.format(java.util.Locale.ROOT, "%s %.2f", e.getKey(), (double) e.getValue() / jobs))
                .collect(Collectors.joining(", "));
    }
}
