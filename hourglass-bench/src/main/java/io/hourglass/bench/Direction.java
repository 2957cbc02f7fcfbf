package io.hourglass.bench;

/** Which way a metric improves, so reports can tell a good ratio from a bad one. */
public enum Direction {
    /** Throughput-like: more is better. */
    HIGHER_IS_BETTER("↑"),
    /** Latency-, memory- or cost-like: less is better. */
    LOWER_IS_BETTER("↓"),
    /** A count or setting shown for context. */
    INFO("");

    private final String arrow;

    Direction(String arrow) {
        this.arrow = arrow;
    }

    /** @return an arrow for table headers: ↑, ↓ or nothing */
    public String arrow() {
        return arrow;
    }
}
