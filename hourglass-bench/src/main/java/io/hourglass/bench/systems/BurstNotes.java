package io.hourglass.bench.systems;

/** The caveat of a burst whose scheduling did not finish before the common due time. */
final class BurstNotes {
    private BurstNotes() {}

    /**
     * Call right after the last schedule call was answered.
     *
     * @param dueMillis the common due time
     * @return a note when scheduling overran the due time, else empty
     */
    static String overrun(long dueMillis) {
        long overrun = System.currentTimeMillis() - dueMillis;
        return overrun > 0 ? "scheduling ended " + overrun + " ms after the due time" : "";
    }
}
