package io.hourglass.internal;

import io.hourglass.Schedule;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The namespace's recurring schedules in Redis ({@code schedules.lua}): the definitions, each schedule's latest fired
 * tick and a version bumped by every change. A definition is stored as the header
 * {@code updatedAtMs|1|topic|cron|zone|misfirePolicy|maxAttempts|leaseMs|callbackUrl}, a newline, then the payload
 * bytes; {@code 1} is the format's version, and empty {@code maxAttempts}/{@code leaseMs}/{@code callbackUrl} mean the
 * instance's defaults and the worker lane. No header field can hold {@code |} or a newline (names, topics, zone ids and
 * cron expressions are validated, callback URLs too). Thread-safe.
 */
final class ScheduleStore {
    /** The wake-bus topic of change signals: the channel {@code hg:{ns}:wake:.schedules}, which no topic can have. */
    static final String CHANGE_TOPIC = ".schedules";

    private static final String FORMAT = "1";

    /** A definition as stored, with when it was put (Redis's clock). */
    record Stored(Schedule schedule, long updatedAtMs) {}

    /**
     * One read: Redis's time, the version, each schedule's latest fired tick, and the definitions when the version
     * differed from the one the caller knew (else null), less those that could not be decoded (named in
     * {@code unreadable}).
     */
    record Snapshot(
            long nowMs,
            String version,
            Map<String, Long> fired,
            Map<String, Stored> definitions,
            Map<String, String> unreadable) {}

    /** What a put did: when Redis stored it, whether it was new, and the schedule's latest fired tick (or null). */
    record Put(long updatedAtMs, boolean created, Long lastTickMs) {}

    private final RedisGateway redis;
    private final byte[][] keys;
    private final byte[] channel;

    ScheduleStore(RedisGateway redis, KeyLayout layout) {
        this.redis = redis;
        this.keys = layout.scheduleKeys();
        this.channel = RedisGateway.bytes(layout.wakeChannel(CHANGE_TOPIC));
    }

    Put put(Schedule schedule) {
        List<Object> reply = call("put", schedule.name().getBytes(StandardCharsets.UTF_8), encode(schedule));
        return new Put((Long) reply.get(0), (Long) reply.get(1) == 1, reply.size() > 2 ? toLong(reply.get(2)) : null);
    }

    boolean delete(String name) {
        return (Long) call("delete", RedisGateway.bytes(name)).get(0) == 1;
    }

    boolean markFired(String name, long tickMs) {
        return (Long) call("fired", RedisGateway.bytes(name), RedisGateway.bytes(Long.toString(tickMs)))
                        .get(0)
                == 1;
    }

    /** @param knownVersion the version whose definitions the caller holds, or "" to read them whatever the version */
    Snapshot read(String knownVersion) {
        List<Object> reply = call("read", RedisGateway.bytes(knownVersion));
        Map<String, Long> fired = new HashMap<>();
        List<?> firedList = (List<?>) reply.get(2);
        for (int i = 0; i + 1 < firedList.size(); i += 2) {
            fired.put(text(firedList.get(i)), Long.parseLong(text(firedList.get(i + 1))));
        }
        Map<String, Stored> definitions = null;
        Map<String, String> unreadable = new HashMap<>();
        if (reply.get(3) instanceof List<?> list) {
            definitions = new HashMap<>();
            for (int i = 0; i + 1 < list.size(); i += 2) {
                String name = text(list.get(i));
                try {
                    definitions.put(name, decode(name, (byte[]) list.get(i + 1)));
                } catch (RuntimeException e) {
                    unreadable.put(name, e.getMessage());
                }
            }
        }
        return new Snapshot((Long) reply.get(0), text(reply.get(1)), fired, definitions, unreadable);
    }

    private List<Object> call(String op, byte[]... args) {
        byte[][] argv = new byte[args.length + 3][];
        argv[0] = channel;
        argv[1] = RedisGateway.bytes("0");
        argv[2] = RedisGateway.bytes(op);
        System.arraycopy(args, 0, argv, 3, args.length);
        return redis.await(redis.run(Script.SCHEDULES, keys, argv), "schedules " + op);
    }

    static byte[] encode(Schedule s) {
        String header = String.join(
                "|",
                FORMAT,
                s.topic(),
                s.cron(),
                s.zone().getId(),
                s.misfirePolicy().name(),
                s.maxAttempts() == null ? "" : s.maxAttempts().toString(),
                s.lease() == null ? "" : Long.toString(s.lease().toMillis()),
                s.callbackUrl() == null ? "" : s.callbackUrl().toString());
        byte[] head = (header + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] payload = s.payload();
        byte[] out = Arrays.copyOf(head, head.length + payload.length);
        System.arraycopy(payload, 0, out, head.length, payload.length);
        return out;
    }

    /** @throws IllegalArgumentException when the stored value is not a definition of this format */
    static Stored decode(String name, byte[] stored) {
        int newline = indexOf(stored, (byte) '\n');
        if (newline < 0) {
            throw new IllegalArgumentException("schedule " + name + ": stored definition has no header line");
        }
        String[] f = new String(stored, 0, newline, StandardCharsets.UTF_8).split("\\|", -1);
        if (f.length != 9 || !f[1].equals(FORMAT)) {
            throw new IllegalArgumentException("schedule " + name + ": stored definition is not of format " + FORMAT);
        }
        Schedule.Builder b = Schedule.builder(name, f[2], f[3])
                .zone(f[4])
                .misfirePolicy(Schedule.MisfirePolicy.valueOf(f[5]))
                .payload(Arrays.copyOfRange(stored, newline + 1, stored.length));
        if (!f[6].isEmpty()) {
            b.maxAttempts(Integer.parseInt(f[6]));
        }
        if (!f[7].isEmpty()) {
            b.lease(Duration.ofMillis(Long.parseLong(f[7])));
        }
        if (!f[8].isEmpty()) {
            b.callbackUrl(URI.create(f[8]));
        }
        return new Stored(b.build(), Long.parseLong(f[0]));
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static String text(Object o) {
        return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o);
    }

    private static Long toLong(Object o) {
        return o == null ? null : Long.parseLong(text(o));
    }

    /** @return the names of {@code definitions}, sorted */
    static List<String> sortedNames(Map<String, Stored> definitions) {
        List<String> names = new ArrayList<>(definitions.keySet());
        names.sort(null);
        return names;
    }
}
