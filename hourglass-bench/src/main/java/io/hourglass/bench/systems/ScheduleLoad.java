package io.hourglass.bench.systems;

/**
 * The shape of a schedule-throughput run.
 *
 * @param jobs jobs timed, over all threads
 * @param inFlight asynchronous schedule calls outstanding per thread (the "batch")
 * @param threads producer threads (for BullMQ: producers, each with its own connection, in one Node process)
 */
public record ScheduleLoad(int jobs, int inFlight, int threads) {
    /** @return a label such as "in-flight 16 × 4 threads" */
    public String label() {
        return "in-flight " + inFlight + " × " + threads + (threads == 1 ? " thread" : " threads");
    }
}
