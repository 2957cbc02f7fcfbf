package io.hourglass.bench.systems;

/** Ids of backlog jobs: {@code b} and nine digits, the same for every system that takes ids. */
public final class BacklogIds {
    /** Length of every id. */
    public static final int LENGTH = 10;

    private BacklogIds() {}

    /** Whose ids a backlog's jobs carry. */
    public enum Source {
        /** {@link #id(int)}, given by the bench; a system without ids carries it in the value instead. */
        GIVEN,
        /** The ids the system makes when given none, as a user who only wants a job run gives none. */
        THE_SYSTEMS_OWN;

        /**
         * @param payloadBytes each job's payload size
         * @return the bytes of id and payload per job the bench gave, subtracted from the memory per job
         */
        public int givenBytes(int payloadBytes) {
            return this == GIVEN ? LENGTH + payloadBytes : payloadBytes;
        }
    }

    /**
     * @param index 0 to 999,999,999
     * @return the id of the job with that index
     */
    public static String id(int index) {
        return String.format("b%09d", index);
    }

    /**
     * Spreads samples over the backlog: sample {@code s} of operation {@code op} (0, 1, 2) gets its own job.
     *
     * @param jobs backlog size
     * @param samples samples per operation
     * @param sample the sample
     * @param op the operation's index
     * @return the job index
     */
    public static int sampleIndex(int jobs, int samples, int sample, int op) {
        int step = Math.max(1, jobs / (3 * samples));
        return ((3 * sample + op) * step) % jobs;
    }

    /**
     * The job a warm-up call uses: the one after sample {@code sample}'s own, which no sample uses whenever the backlog
     * holds at least two jobs per sample, so a warm-up cancel leaves the timed calls' jobs in place.
     *
     * @param jobs backlog size
     * @param samples samples per operation
     * @param sample the warm-up call's number
     * @param op the operation's index
     * @return the job index
     */
    public static int warmUpIndex(int jobs, int samples, int sample, int op) {
        return (sampleIndex(jobs, samples, sample, op) + 1) % jobs;
    }
}
