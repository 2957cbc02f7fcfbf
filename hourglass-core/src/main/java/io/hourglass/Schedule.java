package io.hourglass;

import io.hourglass.validation.Cron;
import io.hourglass.validation.Names;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A named recurring schedule: at each fire time of its cron expression (a <em>tick</em>), one ordinary job of its topic
 * is created, with the payload and options given here and the id {@link Schedules#tickId(String, Instant)}. Create or
 * change it with {@link Schedules#put(Schedule)}. Immutable and thread-safe; built with {@link #builder(String, String,
 * String)}, whose setters check their argument and throw {@link IllegalArgumentException} naming the field.
 */
public final class Schedule {
    private final String name;
    private final String topic;
    private final Cron cron;
    private final byte[] payload;
    private final URI callbackUrl;
    private final Integer maxAttempts;
    private final Duration lease;
    private final MisfirePolicy misfirePolicy;

    /** What a schedule does with ticks that no process fired in time (all of them were down or stalled). */
    public enum MisfirePolicy {
        /**
         * The ticks missed by more than {@link Schedules#MISFIRE_THRESHOLD} are run once, as one job with the id of the
         * latest of them; later ticks run as usual. The default.
         */
        FIRE_ONCE,
        /** The ticks missed by more than {@link Schedules#MISFIRE_THRESHOLD} are not run; later ticks run as usual. */
        SKIP
    }

    private Schedule(Builder b) {
        this.name = b.name;
        this.topic = b.topic;
        this.cron = Cron.parse(b.cron, b.zone);
        this.payload = b.payload;
        this.callbackUrl = b.callbackUrl;
        this.maxAttempts = b.maxAttempts;
        this.lease = b.lease;
        this.misfirePolicy = b.misfirePolicy;
    }

    /**
     * @param name the schedule's name, unique in the namespace: 1 to 100 characters of {@code [A-Za-z0-9._-]} starting
     *     with a letter or digit
     * @param topic the topic of the jobs it creates
     * @param cron five fields ({@code minute hour day-of-month month day-of-week}) or six with seconds first, e.g.
     *     {@code "0 3 * * *"} (03:00 every day) or {@code "*&#47;10 * * * * *"} (every 10 s); see
     *     {@link #nextFireTimes(Instant, int)} for daylight-saving transitions
     * @return a builder with time zone UTC, an empty payload, delivery to workers, the instance's job defaults and
     *     {@link MisfirePolicy#FIRE_ONCE}
     * @throws IllegalArgumentException naming {@code name}, {@code topic} or {@code cron} when bad
     */
    public static Builder builder(String name, String topic, String cron) {
        return new Builder(Names.checkScheduleName(name), Names.checkTopic(topic), cron);
    }

    /** @return the schedule's name; never null */
    public String name() {
        return name;
    }

    /** @return the topic of the jobs it creates; never null */
    public String topic() {
        return topic;
    }

    /** @return the cron expression, fields separated by single spaces; never null */
    public String cron() {
        return cron.expression();
    }

    /** @return the time zone the cron fields are read in; never null */
    public ZoneId zone() {
        return cron.zone();
    }

    /** @return a copy of each job's payload; never null (empty when none was given) */
    public byte[] payload() {
        return payload.clone();
    }

    /** @return the URL each job is POSTed to, or null for delivery to workers (the worker lane) */
    public URI callbackUrl() {
        return callbackUrl;
    }

    /** @return each job's maximum number of deliveries, or null for the instance's default */
    public Integer maxAttempts() {
        return maxAttempts;
    }

    /** @return the lease of each job's deliveries, or null for the instance's default */
    public Duration lease() {
        return lease;
    }

    /** @return what happens to ticks that were missed; never null */
    public MisfirePolicy misfirePolicy() {
        return misfirePolicy;
    }

    /**
     * The fire times after an instant, as cron-utils computes them in the schedule's zone. Daylight-saving transitions:
     * a wall-clock time inside a spring-forward gap does not fire that day, and one that a fall-back overlap repeats
     * fires once, at its first occurrence. Expressions that fire every few seconds or minutes simply follow the
     * instants, so they fire neither twice nor not at all around a transition.
     *
     * @param after the instant to start from (exclusive); not null
     * @param count how many, 1 to 100
     * @return up to {@code count} fire times, earliest first (fewer when the expression has no more); never null
     * @throws IllegalArgumentException naming {@code count} when out of range
     */
    public List<Instant> nextFireTimes(Instant after, int count) {
        Objects.requireNonNull(after, "after");
        if (count < 1 || count > 100) {
            throw new IllegalArgumentException("count: must be between 1 and 100, got " + count);
        }
        List<Instant> times = new ArrayList<>(count);
        Instant t = after;
        while (times.size() < count && (t = cron.next(t)) != null) {
            times.add(t);
        }
        return times;
    }

    @Override
    public String toString() {
        return "Schedule[" + name + ", topic=" + topic + ", cron='" + cron.expression() + "', zone=" + cron.zone()
                + "]";
    }

    /** Builds a {@link Schedule}; not thread-safe. */
    public static final class Builder {
        private final String name;
        private final String topic;
        private final String cron;
        private ZoneId zone = ZoneId.of("UTC");
        private byte[] payload = new byte[0];
        private URI callbackUrl;
        private Integer maxAttempts;
        private Duration lease;
        private MisfirePolicy misfirePolicy = MisfirePolicy.FIRE_ONCE;

        private Builder(String name, String topic, String cron) {
            this.name = name;
            this.topic = topic;
            this.cron = cron;
            Cron.parse(cron, ZoneOffset.UTC);
        }

        /**
         * @param zone the time zone the cron fields are read in; not null
         * @return this builder
         */
        public Builder zone(ZoneId zone) {
            if (zone == null) {
                throw new IllegalArgumentException("zone: must be given");
            }
            this.zone = zone;
            return this;
        }

        /**
         * @param zone a time zone id, e.g. {@code Europe/Berlin}
         * @return this builder
         * @throws IllegalArgumentException naming {@code zone} when it is not a known zone id
         */
        public Builder zone(String zone) {
            this.zone = Cron.zone(zone);
            return this;
        }

        /**
         * @param payload each job's payload, copied; not null. Its size is checked against the instance's limit by
         *     {@link Schedules#put(Schedule)}
         * @return this builder
         */
        public Builder payload(byte[] payload) {
            if (payload == null) {
                throw new IllegalArgumentException("payload: must not be null");
            }
            this.payload = payload.clone();
            return this;
        }

        /**
         * @param payload each job's payload as UTF-8 text; not null
         * @return this builder
         */
        public Builder payload(String payload) {
            if (payload == null) {
                throw new IllegalArgumentException("payload: must not be null");
            }
            this.payload = payload.getBytes(StandardCharsets.UTF_8);
            return this;
        }

        /**
         * @param callbackUrl the http(s) URL each job is POSTed to, or null for delivery to workers; checked against
         *     the instance's callback allow-list by {@link Schedules#put(Schedule)}
         * @return this builder
         */
        public Builder callbackUrl(URI callbackUrl) {
            this.callbackUrl = callbackUrl == null ? null : Names.checkCallbackUrl(callbackUrl);
            return this;
        }

        /**
         * @param maxAttempts each job's maximum number of deliveries, 1 to 10000
         * @return this builder
         */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = Names.checkMaxAttempts(maxAttempts);
            return this;
        }

        /**
         * @param lease the lease of each job's deliveries, 1 ms to 24 h
         * @return this builder
         */
        public Builder lease(Duration lease) {
            this.lease = Names.checkLease(lease, "lease");
            return this;
        }

        /**
         * @param policy what happens to missed ticks; not null
         * @return this builder
         */
        public Builder misfirePolicy(MisfirePolicy policy) {
            if (policy == null) {
                throw new IllegalArgumentException("misfirePolicy: must be given");
            }
            this.misfirePolicy = policy;
            return this;
        }

        /** @return the schedule */
        public Schedule build() {
            return new Schedule(this);
        }
    }
}
