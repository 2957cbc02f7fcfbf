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

    /** @return the thread's kind: its name without the numbering at its end ({@code hourglass-timer-bench} stays) */
    static String kind(String threadName) {
        String kind = NUMBERING.matcher(threadName).replaceFirst("");
        return kind.isEmpty() ? threadName : kind;
    }
}
