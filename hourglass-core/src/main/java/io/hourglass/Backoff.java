package io.hourglass;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The delay before a failed job is retried, as a function of the attempt that failed. Immutable and thread-safe.
 *
 * <p>Three shapes:
 *
 * <ul>
 *   <li>{@link #stepped(Duration...)}: a fixed schedule, the last step repeating; the default is {@link #DEFAULT_STEPS}
 *       = 15s 3m 10m 30m 30m 1h 2h 6h 15h, the stepped retry schedule of Youzan's published delay queue design;
 *   <li>{@link #fixed(Duration)}: the same delay every time;
 *   <li>{@link #exponential(Duration, Duration, double)}: doubling from a base up to a cap, with jitter so that jobs
 *       that failed together do not retry together.
 * </ul>
 *
 * <p>A backoff travels with its job (it is stored in the job's record as its {@link #spec()}), so every worker, in any
 * process, retries a job on the job's own schedule.
 */
public final class Backoff {

    /** The default steps: 15s 3m 10m 30m 30m 1h 2h 6h 15h (the Youzan design's notification retry schedule). */
    public static final List<Duration> DEFAULT_STEPS = List.of(
            Duration.ofSeconds(15),
            Duration.ofMinutes(3),
            Duration.ofMinutes(10),
            Duration.ofMinutes(30),
            Duration.ofMinutes(30),
            Duration.ofHours(1),
            Duration.ofHours(2),
            Duration.ofHours(6),
            Duration.ofHours(15));

    /** The default backoff: {@link #DEFAULT_STEPS}, stepped. */
    public static final Backoff DEFAULT = new Backoff(
            Kind.STEPPED, DEFAULT_STEPS.stream().mapToLong(Duration::toMillis).toArray(), 0);

    private enum Kind {
        STEPPED,
        FIXED,
        EXPONENTIAL
    }

    private final Kind kind;
    private final long[] millis;
    private final double jitter;
    private final String spec;

    private Backoff(Kind kind, long[] millis, double jitter) {
        this.kind = kind;
        this.millis = millis;
        this.jitter = jitter;
        this.spec = toSpec();
    }

    /**
     * A stepped schedule: the n-th retry waits {@code steps[n-1]}, and every retry after the last step waits the last
     * step.
     *
     * @param steps one or more delays, each zero or positive, millisecond precision
     * @return the backoff
     * @throws IllegalArgumentException naming {@code backoff} when there are no steps or a step is negative
     */
    public static Backoff stepped(Duration... steps) {
        Objects.requireNonNull(steps, "steps");
        return stepped(Arrays.asList(steps));
    }

    /**
     * A stepped schedule given as a list; see {@link #stepped(Duration...)}.
     *
     * @param steps one or more delays, each zero or positive
     * @return the backoff
     * @throws IllegalArgumentException naming {@code backoff} when there are no steps or a step is negative
     */
    public static Backoff stepped(List<Duration> steps) {
        if (steps == null || steps.isEmpty()) {
            throw new IllegalArgumentException("backoff: a stepped backoff needs at least one step");
        }
        long[] ms = new long[steps.size()];
        for (int i = 0; i < ms.length; i++) {
            ms[i] = nonNegativeMillis(steps.get(i), "step " + (i + 1));
        }
        return new Backoff(Kind.STEPPED, ms, 0);
    }

    /**
     * The same delay before every retry.
     *
     * @param delay zero or positive, millisecond precision
     * @return the backoff
     * @throws IllegalArgumentException naming {@code backoff} when the delay is negative or null
     */
    public static Backoff fixed(Duration delay) {
        return new Backoff(Kind.FIXED, new long[] {nonNegativeMillis(delay, "delay")}, 0);
    }

    /**
     * Exponential backoff with jitter: the n-th retry waits {@code min(max, base * 2^(n-1))}, then shortened by a
     * random fraction of at most {@code jitter} of it ("equal jitter" when 0.5, "full jitter" when 1).
     *
     * @param base the first delay, positive
     * @param max the cap, at least {@code base}
     * @param jitter from 0 (none) to 1 (a uniform delay between 0 and the exponential one)
     * @return the backoff
     * @throws IllegalArgumentException naming {@code backoff} on a bad bound
     */
    public static Backoff exponential(Duration base, Duration max, double jitter) {
        long b = nonNegativeMillis(base, "base");
        long m = nonNegativeMillis(max, "max");
        if (b <= 0 || m < b) {
            throw new IllegalArgumentException(
                    "backoff: exponential needs 0 < base <= max, got base " + b + " ms, max " + m + " ms");
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("backoff: jitter must be between 0 and 1, got " + jitter);
        }
        return new Backoff(Kind.EXPONENTIAL, new long[] {b, m}, jitter);
    }

    /**
     * The delay before retrying after the given attempt failed.
     *
     * @param failedAttempt the attempt that failed, 1 for the first delivery
     * @return the delay, zero or positive
     */
    public Duration delayAfter(int failedAttempt) {
        int n = Math.max(failedAttempt, 1);
        switch (kind) {
            case STEPPED:
                return Duration.ofMillis(millis[Math.min(n, millis.length) - 1]);
            case FIXED:
                return Duration.ofMillis(millis[0]);
            default:
                long exponential = (long) Math.min((double) millis[1], millis[0] * Math.pow(2, n - 1));
                long cut = (long)
                        (exponential * jitter * ThreadLocalRandom.current().nextDouble());
                return Duration.ofMillis(exponential - cut);
        }
    }

    /**
     * The stable text form stored with each job: {@code steps:15000,180000}, {@code fixed:5000} or
     * {@code exp:1000,3600000,0.5} (milliseconds). {@link #parse(String)} reads it back.
     *
     * @return the spec; never null
     */
    public String spec() {
        return spec;
    }

    private String toSpec() {
        switch (kind) {
            case STEPPED:
                StringBuilder sb = new StringBuilder("steps:");
                for (int i = 0; i < millis.length; i++) {
                    sb.append(i == 0 ? "" : ",").append(millis[i]);
                }
                return sb.toString();
            case FIXED:
                return "fixed:" + millis[0];
            default:
                return "exp:" + millis[0] + "," + millis[1] + "," + jitter;
        }
    }

    /**
     * Reads a {@link #spec()}.
     *
     * @param spec the text form; null or empty means {@link #DEFAULT}
     * @return the backoff
     * @throws IllegalArgumentException naming {@code backoff} when the spec is malformed
     */
    public static Backoff parse(String spec) {
        if (spec == null || spec.isEmpty()) {
            return DEFAULT;
        }
        try {
            int colon = spec.indexOf(':');
            String[] parts = spec.substring(colon + 1).split(",", -1);
            switch (spec.substring(0, Math.max(colon, 0))) {
                case "steps":
                    List<Duration> steps = new ArrayList<>();
                    for (String p : parts) {
                        steps.add(Duration.ofMillis(Long.parseLong(p)));
                    }
                    return stepped(steps);
                case "fixed":
                    return fixed(Duration.ofMillis(Long.parseLong(parts[0])));
                case "exp":
                    return exponential(
                            Duration.ofMillis(Long.parseLong(parts[0])),
                            Duration.ofMillis(Long.parseLong(parts[1])),
                            Double.parseDouble(parts[2]));
                default:
                    throw new IllegalArgumentException("backoff: unknown kind in '" + spec + "'");
            }
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("backoff: malformed spec '" + spec + "'", e);
        }
    }

    private static long nonNegativeMillis(Duration d, String what) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException("backoff: " + what + " must be zero or positive, got " + d);
        }
        return d.toMillis();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Backoff && ((Backoff) o).spec.equals(spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    @Override
    public String toString() {
        return "Backoff[" + spec() + "]";
    }
}
