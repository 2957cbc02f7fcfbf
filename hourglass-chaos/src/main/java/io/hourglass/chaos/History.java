package io.hourglass.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Everything the processes of one scenario recorded, read back from its {@code *.history} files: acceptances
 * (producers), deliveries (workers) and faults (the checker); in {@link Scenario#servers()} scenarios also the
 * callbacks the receiver answered, the outcome of each accepted POST and the POST tries that failed; in the cold-tier
 * scenario also reschedules, cancels and what each feeder moved. A line cut short by a {@code kill -9} is skipped: its
 * handler never returned, so its job was not acked and comes back to another worker.
 */
final class History {
    final Map<String, Acceptance> accepted = new HashMap<>();
    final Map<String, List<DeliveryRecord>> deliveries = new HashMap<>();
    final List<Fault> faults = new ArrayList<>();
    /** Callbacks by job, in order of arrival ({@code C} lines). */
    final Map<String, List<CallbackRecord>> callbacks = new HashMap<>();
    /**
     * How each accepted POST was answered, by job: {@code CREATED}, {@code KEPT}, or {@code KEPT/ACKED} (and the like)
     * when the id was reserved by a job that had ended (the optional 7th and 8th fields of an {@code A} line).
     */
    final Map<String, String> outcomes = new HashMap<>();
    /** POST tries that got no usable answer, by why: {@code timeout}, {@code connect}, {@code 503}, ... ({@code T}). */
    final Map<String, Long> failedTries = new TreeMap<>();
    /** POSTs refused for good with a 4xx ({@code X} lines); a correct producer gets none. */
    long refusedPosts;
    /** Cold-tier scenario: the reschedule that returned, by job ({@code R} lines). */
    final Map<String, TierOperation> reschedules = new HashMap<>();
    /** Cold-tier scenario: the cancel that returned, by job ({@code K} lines). */
    final Map<String, TierOperation> cancels = new HashMap<>();
    /** Cold-tier scenario: by feeder process, the most it reported of jobs moved, of those resent, and of its lag. */
    final Map<String, long[]> feeders = new TreeMap<>();
    /** Cold-tier scenario: jobs Redis refused that stayed in PostgreSQL at the end ({@code S} line). */
    long setAside;

    int skippedLines;

    static String key(String topic, String id) {
        return topic + "/" + id;
    }

    static History read(Path dir) {
        History history = new History();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".history"))
                    .sorted()
                    .toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    history.add(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the history in " + dir, e);
        }
        history.deliveries.values().forEach(list -> list.sort(Comparator.comparingLong(DeliveryRecord::wallMs)));
        history.callbacks.values().forEach(list -> list.sort(Comparator.comparingLong(CallbackRecord::startMs)));
        history.faults.sort(Comparator.comparingLong(Fault::startMs));
        return history;
    }

    private void add(String line) {
        String[] f = line.split(" ");
        try {
            switch (f[0]) {
                case "A" -> {
                    accepted.put(
                            key(f[1], f[2]),
                            new Acceptance(
                                    f[1],
                                    f[2],
                                    Long.parseLong(f[3]),
                                    Long.parseLong(f[4]),
                                    Long.parseLong(f[5]),
                                    Integer.parseInt(f[6])));
                    if (f.length >= 9) {
                        outcomes.put(key(f[1], f[2]), f[8].equals("-") ? f[7] : f[7] + "/" + f[8]);
                    }
                }
                case "C" ->
                    callbacks
                            .computeIfAbsent(key(f[1], f[2]), k -> new ArrayList<>())
                            .add(new CallbackRecord(
                                    f[1],
                                    f[2],
                                    Integer.parseInt(f[3]),
                                    Integer.parseInt(f[4]),
                                    Long.parseLong(f[5]),
                                    Long.parseLong(f[6]),
                                    Integer.parseInt(f[7])));
                case "T" -> failedTries.merge(f[5], 1L, Long::sum);
                case "X" -> refusedPosts++;
                case "D" ->
                    deliveries
                            .computeIfAbsent(key(f[1], f[2]), k -> new ArrayList<>())
                            .add(new DeliveryRecord(
                                    f[1],
                                    f[2],
                                    Integer.parseInt(f[3]),
                                    Long.parseLong(f[4]),
                                    f[5],
                                    Long.parseLong(f[6])));
                case "R" ->
                    reschedules.put(
                            key(f[1], f[2]),
                            new TierOperation(
                                    Long.parseLong(f[3]),
                                    Long.parseLong(f[4]),
                                    Long.parseLong(f[5]),
                                    Boolean.parseBoolean(f[6]),
                                    Integer.parseInt(f[7])));
                case "K" ->
                    cancels.put(
                            key(f[1], f[2]),
                            new TierOperation(
                                    -1,
                                    Long.parseLong(f[3]),
                                    Long.parseLong(f[4]),
                                    Boolean.parseBoolean(f[5]),
                                    Integer.parseInt(f[6])));
                case "M" -> {
                    long[] most = feeders.computeIfAbsent(f[1], k -> new long[3]);
                    for (int i = 0; i < most.length; i++) {
                        most[i] = Math.max(most[i], Long.parseLong(f[2 + i]));
                    }
                }
                case "S" -> setAside = Long.parseLong(f[1]);
                case "F" ->
                    faults.add(new Fault(
                            FaultKind.byLabel(f[1]),
                            f[2],
                            Long.parseLong(f[3]),
                            Long.parseLong(f[4]),
                            Long.parseLong(f[5])));
                default -> skippedLines++;
            }
        } catch (RuntimeException e) {
            skippedLines++;
        }
    }
}
