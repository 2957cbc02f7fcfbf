package io.hourglass.bench.scaleout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The CPU time of each live Java thread of this JVM at one moment ({@link ThreadMXBean}), so that a worker can say
 * which of its threads did the work between two reports: a thread near a whole core while the drain is slow is what
 * binds the process. The JVM's hidden threads (JIT compilers, GC) are not Java threads and are left out; the process
 * CPU and the compilers' time are reported beside.
 */
final class ThreadCpu {
    /** Characters that would break the report line's encoding of a name ({@link #encode}). */
    private static final Pattern UNSAFE = Pattern.compile("[\\s,:]");
    /** A thread name's numbering: {@code lettuce-nioEventLoop-4-1} is of kind {@code lettuce-nioEventLoop}. */
    private static final Pattern NUMBERING = Pattern.compile("([-_#]?\\d+)+$");

    private final Map<Long, Long> nanosById;
    private final Map<Long, String> nameById;

    private ThreadCpu(Map<Long, Long> nanosById, Map<Long, String> nameById) {
        this.nanosById = nanosById;
        this.nameById = nameById;
    }

    /** @return every live Java thread's CPU time now; empty where the JVM does not measure it */
    static ThreadCpu now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> nanos = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        if (threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled()) {
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info == null) {
                    continue; // ended since the ids were listed
                }
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu >= 0) {
                    nanos.put(info.getThreadId(), cpu);
                    names.put(info.getThreadId(), info.getThreadName());
                }
            }
        }
        return new ThreadCpu(nanos, names);
    }

    /**
     * @param before an earlier snapshot of this JVM
     * @return each thread's CPU time since {@code before} (ns; a thread started since counts whole), by name, for the
     *     threads that ran; threads of the same name are summed, and one that ended since is missing
     */
    Map<String, Long> since(ThreadCpu before) {
        Map<String, Long> used = new LinkedHashMap<>();
        nanosById.forEach((id, nanos) -> {
            long delta = nanos - before.nanosById.getOrDefault(id, 0L);
            if (delta > 0) {
                used.merge(nameById.get(id), delta, Long::sum);
            }
        });
        return used;
    }

    /** @return {@code name:nanos} pairs joined by commas, names stripped of spaces, commas and colons; "-" if none */
    static String encode(Map<String, Long> nanosByName) {
        if (nanosByName.isEmpty()) {
            return "-";
        }
        StringBuilder out = new StringBuilder();
        nanosByName.forEach((name, nanos) -> {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(UNSAFE.matcher(name).replaceAll("_")).append(':').append(nanos);
        });
        return out.toString();
    }

    /** @return the pairs of {@link #encode}, in order */
    static Map<String, Long> decode(String encoded) {
        Map<String, Long> nanosByName = new LinkedHashMap<>();
        if (encoded.equals("-")) {
            return nanosByName;
        }
        for (String pair : encoded.split(",")) {
            int colon = pair.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("not a thread's CPU time (name:nanos): " + pair);
            }
            nanosByName.merge(pair.substring(0, colon), Long.parseLong(pair.substring(colon + 1)), Long::sum);
        }
        return nanosByName;
    }

    /** @return the thread's kind: its name without the numbering at its end ({@code hourglass-timer-bench} stays) */
    static String kind(String threadName) {
        String kind = NUMBERING.matcher(threadName).replaceFirst("");
        return kind.isEmpty() ? threadName : kind;
    }
}
