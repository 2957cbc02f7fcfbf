package io.hourglass.bench;

/** One workload of the benchmark: runs its scenarios for every system and records the figures. */
public interface Workload {

    /** @return the name used on the command line, e.g. {@code e2e} */
    String key();

    /** @return the title of its table, e.g. "2. End-to-end" */
    String title();

    /**
     * @param context sizes, systems, results
     * @throws Exception when the workload cannot run at all (a failing system is only noted)
     */
    void run(BenchContext context) throws Exception;
}
