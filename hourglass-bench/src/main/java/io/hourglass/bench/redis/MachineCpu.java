package io.hourglass.bench.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's CPU use between two readings, from Linux's {@code /proc/stat} (every core's busy and idle
 * jiffies), so a scale-out run can tell a saturated machine from a bound in Redis or the clients. Elsewhere the
 * readings are empty and the share is NaN.
 *
 * @param busy jiffies spent on anything but idle and I/O wait, summed over the cores; -1 when unreadable
 * @param total all jiffies summed over the cores; -1 when unreadable
 */
public record MachineCpu(long busy, long total) {
    private static final Path PROC_STAT = Path.of("/proc/stat");

    /** @return the counters now */
    public static MachineCpu read() {
        try {
            for (String line : Files.readAllLines(PROC_STAT)) {
                if (line.startsWith("cpu ")) {
                    String[] fields = line.trim().split("\\s+");
                    long total = 0;
                    for (int i = 1; i < fields.length; i++) {
                        total += Long.parseLong(fields[i]);
                    }
                    // user nice system idle iowait irq softirq steal ...: idle and iowait are not busy
                    long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
                    return new MachineCpu(total - idle, total);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or a /proc we cannot read: the share is unknown
        }
        return new MachineCpu(-1, -1);
    }

    /**
     * @param earlier a reading taken before this one
     * @return the share of all cores busy between the two, in % (100 = every core busy), or NaN if unknown
     */
    public double busyPercentSince(MachineCpu earlier) {
        long total = this.total - earlier.total;
        if (this.total < 0 || earlier.total < 0 || total <= 0) {
            return Double.NaN;
        }
        return 100.0 * (this.busy - earlier.busy) / total;
    }
}
