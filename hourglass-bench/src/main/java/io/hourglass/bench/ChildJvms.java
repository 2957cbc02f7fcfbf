package io.hourglass.bench;

import java.util.List;

/**
 * How the bench uses JVMs of their own beside its own.
 *
 * @param freshJvm whether the end-to-end workload also runs each JVM-side system's step in a fresh JVM per round, with
 *     no warm-up, as a user's freshly started service meets a burst
 * @param workerJvmOptions options given to the {@code java} command of those JVMs and of the client-CPU and scale-out
 *     workloads' worker JVMs (e.g. {@code -XX:TieredStopAtLevel=1}, {@code -XX:SharedArchiveFile=...}); empty for none
 */
public record ChildJvms(boolean freshJvm, List<String> workerJvmOptions) {
    /** No fresh-JVM rounds, no JVM options. */
    public static final ChildJvms DEFAULTS = new ChildJvms(false, List.of());

    /** Copies the options. */
    public ChildJvms {
        workerJvmOptions = List.copyOf(workerJvmOptions);
    }
}
