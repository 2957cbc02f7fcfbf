package io.hourglass.bench;

/** The systems a benchmark compares; {@link #REDIS} stands for raw Redis as measured by {@code redis-benchmark}. */
public enum SystemName {
    /** Hourglass itself, through its public Java API. */
    HOURGLASS("Hourglass"),
    /** Redisson's {@code RDelayedQueue} over an {@code RBlockingQueue}. */
    REDISSON("Redisson"),
    /** BullMQ delayed jobs with a {@code Worker}, in Node.js. */
    BULLMQ("BullMQ"),
    /** The Redis server alone ({@code redis-benchmark}): the physical limit. */
    REDIS("redis-benchmark");

    private final String label;

    SystemName(String label) {
        this.label = label;
    }

    /** @return the name shown in reports */
    public String label() {
        return label;
    }

    /** @return whether this is a delay queue compared against Hourglass */
    public boolean isPeer() {
        return this == REDISSON || this == BULLMQ;
    }
}
