package io.hourglass;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.zip.CRC32;

/**
 * How Hourglass lays its data out in Redis, read-only, for tools that look at a Redis directly rather than through
 * {@link Hourglass}: the test kit's invariant checker, tests that need to know which node serves a job's shard, or an
 * operator reading {@code SLOWLOG}. Applications do not need it. The layout itself is described in ARCHITECTURE.md
 * ("Redis key layout"). Static methods only; thread-safe.
 */
public final class StorageFormat {
    private static final List<String> SHARD_KEY_SUFFIXES = List.of(
            "jobs",
            "errors",
            "dead",
            "seq",
            "w:waiting",
            "w:active",
            "c:waiting",
            "c:active",
            "leases",
            "paused",
            "history",
            "ended",
            "ended:order",
            "events",
            "flow",
            "w:prio",
            "c:prio",
            "completed");
    private static final int HEADER_FIELDS = 14;
    /** A band of a {@code prio} set's scores: 2^42 ms, past the year 2109 (see {@link #waitingScore}). */
    private static final long PRIORITY_BAND = 1L << 42;

    private static final String INCLUDE = "-- @include ";

    /** The maxAttempts an empty header field stands for; part of the stored format, not the builder's default. */
    public static final int STORED_DEFAULT_MAX_ATTEMPTS = 10;
    /** The lease in ms an empty header field stands for; part of the stored format, like the above. */
    public static final long STORED_DEFAULT_LEASE_MS = 30_000;
    /**
     * The idempotency window in ms an empty header field stands for (one hour, as
     * {@link HourglassBuilder#DEFAULT_IDEMPOTENCY_WINDOW}); part of the stored format, like the above.
     */
    public static final long STORED_DEFAULT_IDEMPOTENCY_WINDOW_MS = 3_600_000;

    /**
     * The end of the id of a failure notice: the job that a dead job with a failure callback URL gets, named after it
     * ({@code order-42:failure}). Ids of scheduled jobs cannot end so; a notice lives in its job's shard.
     */
    public static final String FAILURE_NOTICE_SUFFIX = ":failure";

    private StorageFormat() {}

    /**
     * A job record as stored in its shard's {@code jobs} hash, decoded. A field at its stored default is written empty
     * in Redis and reads back as that default here.
     *
     * @param dueMs the due time, epoch ms by the Redis server's clock
     * @param failedAttempts attempts that ended in failure (nacked, or the lease expired)
     * @param maxAttempts deliveries allowed before the job goes to the dead letters
     * @param leaseMs the lease of each delivery, ms
     * @param backoff the backoff spec ({@link Backoff#parse}), or empty for {@link Backoff#DEFAULT}
     * @param callbackUrl the callback URL, or empty for a worker job
     * @param idempotencyWindowMs how long, in ms, the job's id stays reserved once the job is gone (0: not at all)
     * @param payload the payload bytes, verbatim (not copied)
     * @param originalDueMs the due time the job's producer gave it (schedule or reschedule), epoch ms; equal to
     *     {@code dueMs} until a retry, run-now or requeue moves that (stored empty while equal)
     * @param expiresAtMs when the job expires if it was not delivered by then, epoch ms; 0 for never
     * @param onExpiry what happens when it expires; {@link OnExpiry#DEAD_LETTER} when stored empty
     * @param failureCallbackUrl the URL a failure notice is POSTed to when the job goes to the dead letters, or empty
     * @param priority the job's priority, {@link JobRequest#MIN_PRIORITY} to {@link JobRequest#MAX_PRIORITY};
     *     {@link JobRequest#DEFAULT_PRIORITY} when stored empty
     * @param deferrals the callback deliveries of the job that its receiver deferred (429 or 503 with
     *     {@code Retry-After}) without an attempt being charged
     * @param dispatchDeadlineMs how long one callback request of the job may take, ms; 0 for the dispatcher's own
     *     timeout
     */
    public record StoredRecord(
            long dueMs,
            int failedAttempts,
            int maxAttempts,
            long leaseMs,
            String backoff,
            String callbackUrl,
            long idempotencyWindowMs,
            byte[] payload,
            long originalDueMs,
            long expiresAtMs,
            OnExpiry onExpiry,
            String failureCallbackUrl,
            int priority,
            int deferrals,
            long dispatchDeadlineMs) {}

    /**
     * @return the eighteen per-shard key suffixes ({@code jobs}, {@code errors}, …, {@code flow}, {@code w:prio},
     *     {@code c:prio}, {@code completed}), in the order every script receives the keys; a shard's key is
     *     {@link #shardKeyPrefix} followed by one of them. Immutable.
     */
    public static List<String> shardKeySuffixes() {
        return SHARD_KEY_SUFFIXES;
    }

    /**
     * @param id a job id
     * @param shards the namespace's shard count, at least 1
     * @return the job's shard: CRC-32 of the id's UTF-8 bytes modulo {@code shards}; stable across processes. A failure
     *     notice's id ({@link #FAILURE_NOTICE_SUFFIX}) is in the shard of its job's id, where the script that ended the
     *     job wrote it.
     */
    public static int shardOf(String id, int shards) {
        if (shards == 1) {
            return 0;
        }
        if (id.endsWith(FAILURE_NOTICE_SUFFIX)) {
            id = id.substring(0, id.length() - FAILURE_NOTICE_SUFFIX.length());
        }
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }

    /**
     * @param namespace the namespace
     * @param topic the topic
     * @param shard the shard, from 0
     * @return {@code hg:{namespace:topic:shard}:}, the prefix of every key of that shard (its hash tag decides the
     *     Redis Cluster slot)
     */
    public static String shardKeyPrefix(String namespace, String topic, int shard) {
        return "hg:{" + namespace + ":" + topic + ":" + shard + "}:";
    }

    /**
     * @param namespace the namespace
     * @return {@code hg:{namespace}:topics}, the set of every topic ever scheduled in the namespace
     */
    public static String topicsKey(String namespace) {
        return "hg:{" + namespace + "}:topics";
    }

    /**
     * Decodes a record that has a header: an ASCII header
     * {@code due|failedAttempts|maxAttempts|leaseMs|backoff|callbackUrl|idempotencyWindowMs|} followed by
     * {@code originalDue|expiresAt|onExpiry|failureCallbackUrl|priority|deferrals|dispatchDeadlineMs}, a newline, then
     * the payload bytes. A record written before the later fields existed has none of them and reads with their
     * defaults (the original due time is then the due time; no deferral; no dispatch deadline of its own). A bare
     * record ({@link #isBare}) has no due time of its own: read it with {@link #decode(byte[], long)}.
     *
     * @param raw the value of the {@code jobs} hash field; not null
     * @return the record
     * @throws IllegalArgumentException when the value is not a job record with a header
     */
    public static StoredRecord decode(byte[] raw) {
        if (isBare(raw)) {
            throw new IllegalArgumentException("a bare job record has no due time of its own: decode(raw, dueMs)");
        }
        int nl = 0;
        while (nl < raw.length && raw[nl] != '\n') {
            nl++;
        }
        if (nl == raw.length) {
            throw new IllegalArgumentException("job record without a header line");
        }
        String[] given = new String(raw, 0, nl, StandardCharsets.US_ASCII).split("\\|", -1);
        if (given.length > HEADER_FIELDS) {
            throw new IllegalArgumentException(
                    "job record header has " + given.length + " fields, at most " + HEADER_FIELDS);
        }
        String[] f = Arrays.copyOf(given, HEADER_FIELDS);
        try {
            long due = Long.parseLong(f[0]);
            return new StoredRecord(
                    due,
                    (int) number(f[1], 0),
                    (int) number(f[2], STORED_DEFAULT_MAX_ATTEMPTS),
                    number(f[3], STORED_DEFAULT_LEASE_MS),
                    f[4] == null ? "" : f[4],
                    f[5] == null ? "" : f[5],
                    number(f[6], STORED_DEFAULT_IDEMPOTENCY_WINDOW_MS),
                    Arrays.copyOfRange(raw, nl + 1, raw.length),
                    number(f[7], due),
                    number(f[8], 0),
                    onExpiry(f[9]),
                    f[10] == null ? "" : f[10],
                    (int) number(f[11], JobRequest.DEFAULT_PRIORITY),
                    (int) number(f[12], 0),
                    number(f[13], 0));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("job record header has a malformed number: " + e.getMessage(), e);
        }
    }

    /**
     * Whether a record is bare: the payload alone, with no header. A job whose every field is at its stored default and
     * whose payload does not begin with an ASCII digit or {@code '-'} (the bytes a header begins with) is stored so,
     * which keeps a job with a 30-byte payload in jemalloc's 32-byte size class. Its due time is where the job is: its
     * score in the worker lane's {@code w:waiting} set while it waits, and the end of its receipt in the {@code leases}
     * hash while it is ACTIVE ({@link #dueOfReceipt}). No other place holds a bare record.
     *
     * @param raw the value of the {@code jobs} hash field; not null
     * @return true when it is empty or its first byte is neither an ASCII digit nor {@code '-'}
     */
    public static boolean isBare(byte[] raw) {
        return raw.length == 0 || !(raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'));
    }

    /**
     * Decodes any record: one with a header as {@link #decode(byte[])} does, a bare one ({@link #isBare}) as a job with
     * every field at its stored default, the given due time, and the whole value as its payload.
     *
     * @param raw the value of the {@code jobs} hash field; not null
     * @param dueMs the due time of a bare record, epoch ms (its score in {@code w:waiting}, or its receipt's); not
     *     looked at for a record with a header
     * @return the record
     * @throws IllegalArgumentException when the value is not a job record
     */
    public static StoredRecord decode(byte[] raw, long dueMs) {
        if (!isBare(raw)) {
            return decode(raw);
        }
        return new StoredRecord(
                dueMs,
                0,
                STORED_DEFAULT_MAX_ATTEMPTS,
                STORED_DEFAULT_LEASE_MS,
                "",
                "",
                STORED_DEFAULT_IDEMPOTENCY_WINDOW_MS,
                raw,
                dueMs,
                0,
                OnExpiry.DEAD_LETTER,
                "",
                JobRequest.DEFAULT_PRIORITY,
                0,
                0);
    }

    /**
     * The due time a receipt carries: a claim appends {@code @<due ms>} to the receipt of a job whose record is bare,
     * since that due time has no other place while the job is ACTIVE.
     *
     * @param receipt a receipt as the {@code leases} hash holds it; not null
     * @return the due time, epoch ms, or empty for a receipt that carries none (the job's record has a header) or whose
     *     due time is not a number
     */
    public static OptionalLong dueOfReceipt(String receipt) {
        int at = receipt.lastIndexOf('@');
        if (at < 0) {
            return OptionalLong.empty();
        }
        // The digits Redis printed for the job's score, which a Redis build may write as a double.
        String due = receipt.substring(at + 1);
        try {
            return OptionalLong.of(Long.parseLong(due));
        } catch (NumberFormatException notALong) {
            try {
                return OptionalLong.of((long) Double.parseDouble(due));
            } catch (NumberFormatException notANumber) {
                return OptionalLong.empty();
            }
        }
    }

    /**
     * Where a waiting job is kept: a job at {@link JobRequest#DEFAULT_PRIORITY} in its lane's {@code waiting} set,
     * scored by its due time; any other in its lane's {@code prio} set, scored {@code band * 2^42 + due}, where the
     * band is {@code MAX_PRIORITY - priority} (0 for the highest), so that higher priorities sort first and each band
     * holds its jobs by due time. A due time outside {@code [0, 2^42)} is clamped into its band.
     *
     * @param record a waiting job's record; not null
     * @return its score in the sorted set {@link #waitingSuffix} names
     */
    public static long waitingScore(StoredRecord record) {
        if (record.priority() == JobRequest.DEFAULT_PRIORITY) {
            return record.dueMs();
        }
        long due = Math.min(Math.max(record.dueMs(), 0), PRIORITY_BAND - 1);
        return (JobRequest.MAX_PRIORITY - record.priority()) * PRIORITY_BAND + due;
    }

    /**
     * @param record a waiting job's record; not null
     * @return the suffix of the sorted set it waits in: {@code w:waiting}, {@code c:waiting}, {@code w:prio} or
     *     {@code c:prio} (see {@link #waitingScore})
     */
    public static String waitingSuffix(StoredRecord record) {
        return (record.callbackUrl().isEmpty() ? "w:" : "c:")
                + (record.priority() == JobRequest.DEFAULT_PRIORITY ? "waiting" : "prio");
    }

    private static OnExpiry onExpiry(String field) {
        if (field == null || field.isEmpty()) {
            return OnExpiry.DEAD_LETTER;
        }
        if (field.equals("drop")) {
            return OnExpiry.DROP;
        }
        throw new IllegalArgumentException("job record header has an unknown onExpiry '" + field + "'");
    }

    private static long number(String field, long storedDefault) {
        return field == null || field.isEmpty() ? storedDefault : Long.parseLong(field);
    }

    /**
     * @param script a script's name, e.g. {@code claim} (one per transition; ARCHITECTURE.md lists them)
     * @return the Lua source Hourglass sends for it, with its {@code -- @include} lines expanded, as UTF-8
     * @throws IllegalArgumentException when there is no such script
     */
    public static byte[] scriptSource(String script) {
        StringBuilder out = new StringBuilder();
        for (String line : read(script + ".lua").split("\n", -1)) {
            if (line.startsWith(INCLUDE)) {
                out.append(read(line.substring(INCLUDE.length()).trim())).append('\n');
            } else {
                out.append(line).append('\n');
            }
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param script a script's name, e.g. {@code claim}
     * @return the SHA-1 that Redis knows the script by ({@code EVALSHA}, {@code SLOWLOG}), lower-case hex
     * @throws IllegalArgumentException when there is no such script
     */
    public static String scriptSha(String script) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(scriptSource(script)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JVM", e);
        }
    }

    /**
     * One completion event of a shard's job-history stream ({@code hg:{ns:topic:k}:events}, written with
     * {@link HourglassBuilder#historyEvents} on), decoded; the topic and shard are the stream's own.
     *
     * @param jobId the job's id; not null
     * @param outcome how it ended: {@code ACKED}, {@code DEAD}, {@code CANCELLED}, {@code EXPIRED} or {@code TRIMMED};
     *     not null
     * @param attempts the deliveries the job had
     * @param maxAttempts the deliveries it was allowed
     * @param dueMs the due time of its last delivery, epoch ms (Redis server clock)
     * @param atMs when it ended, epoch ms (Redis server clock)
     * @param payloadBytes the payload's size in bytes
     * @param error its last error (UTF-8), or null when it has none
     * @param callbackUrl the callback URL of a callback job, or null for a worker job
     * @param payload the payload bytes when the event holds them (not copied), or null
     */
    public record StoredEvent(
            String jobId,
            String outcome,
            int attempts,
            int maxAttempts,
            long dueMs,
            long atMs,
            int payloadBytes,
            String error,
            String callbackUrl,
            byte[] payload) {}

    /**
     * Decodes one entry of a job-history stream. An entry holds the events of one script call (ARCHITECTURE.md, "Job
     * history"): fields {@code at}, {@code count} and {@code events}, the events one after another. Entries written by
     * versions that appended one entry per event (fields {@code id}, {@code outcome}, {@code attempts}, ...) decode to
     * a list of one.
     *
     * @param fields the entry's fields and values as Redis returns them; not null
     * @return the entry's events in the order their transitions happened; never empty
     * @throws IllegalArgumentException when the entry is neither format (a field missing, a length past the end)
     */
    public static List<StoredEvent> historyEvents(Map<String, byte[]> fields) {
        byte[] events = fields.get("events");
        if (events == null) {
            return List.of(oneEvent(fields));
        }
        long at = number(fields, "at");
        long count = number(fields, "count");
        List<StoredEvent> decoded = new ArrayList<>();
        int[] position = {0};
        while (position[0] < events.length) {
            decoded.add(nextEvent(events, position, at));
        }
        if (decoded.size() != count) {
            throw new IllegalArgumentException("history entry: count " + count + ", but " + decoded.size() + " events");
        }
        return decoded;
    }

    private static final Map<Character, String> OUTCOMES =
            Map.of('A', "ACKED", 'D', "DEAD", 'C', "CANCELLED", 'E', "EXPIRED", 'T', "TRIMMED");

    /** The event that starts at {@code position[0]} of a batch entry's {@code events}; moves the position past it. */
    private static StoredEvent nextEvent(byte[] events, int[] position, long atMs) {
        String outcome = OUTCOMES.get((char) events[position[0]]);
        if (outcome == null) {
            throw new IllegalArgumentException("history entry: unknown outcome code at byte " + position[0]);
        }
        position[0]++;
        long[] header = new long[8];
        for (int i = 0; i < header.length; i++) {
            header[i] = digits(events, position, i == header.length - 1 ? '\n' : '|');
            // Attempts, max attempts, due time, payload size and the id's length are in every event.
            if (i <= 4 && header[i] < 0) {
                throw new IllegalArgumentException("history entry: an event's header field " + i + " is empty");
            }
        }
        byte[] id = slice(events, position, header[4]);
        byte[] error = slice(events, position, header[5]);
        byte[] callback = slice(events, position, header[6]);
        byte[] payload = slice(events, position, header[7]);
        return new StoredEvent(
                new String(id, StandardCharsets.UTF_8),
                outcome,
                Math.toIntExact(header[0]),
                Math.toIntExact(header[1]),
                header[2],
                atMs,
                Math.toIntExact(header[3]),
                error == null ? null : new String(error, StandardCharsets.UTF_8),
                callback == null ? null : new String(callback, StandardCharsets.UTF_8),
                payload);
    }

    /** A decimal number ending at {@code end}, or -1 when it is empty (a field the event has not). */
    private static long digits(byte[] bytes, int[] position, char end) {
        long n = -1;
        int p = position[0];
        while (p < bytes.length && bytes[p] != end) {
            int digit = bytes[p] - '0';
            if (digit < 0 || digit > 9 || n > Long.MAX_VALUE / 10 - 1) {
                throw new IllegalArgumentException("history entry: not a number at byte " + p);
            }
            n = Math.max(n, 0) * 10 + digit;
            p++;
        }
        if (p == bytes.length) {
            throw new IllegalArgumentException("history entry: an event's header ends early");
        }
        position[0] = p + 1;
        return n;
    }

    private static byte[] slice(byte[] bytes, int[] position, long length) {
        if (length < 0) {
            return null;
        }
        if (length > bytes.length - position[0]) {
            throw new IllegalArgumentException("history entry: a field runs past the entry's end");
        }
        int from = position[0];
        position[0] += (int) length;
        return Arrays.copyOfRange(bytes, from, position[0]);
    }

    private static StoredEvent oneEvent(Map<String, byte[]> f) {
        byte[] id = f.get("id");
        byte[] outcome = f.get("outcome");
        if (id == null || outcome == null) {
            throw new IllegalArgumentException("history entry: neither an id nor events");
        }
        byte[] error = f.get("error");
        byte[] callback = f.get("callbackUrl");
        return new StoredEvent(
                new String(id, StandardCharsets.UTF_8),
                new String(outcome, StandardCharsets.UTF_8),
                Math.toIntExact(number(f, "attempts")),
                Math.toIntExact(number(f, "maxAttempts")),
                number(f, "due"),
                number(f, "at"),
                Math.toIntExact(number(f, "payloadBytes")),
                error == null ? null : new String(error, StandardCharsets.UTF_8),
                callback == null ? null : new String(callback, StandardCharsets.UTF_8),
                f.get("payload"));
    }

    private static long number(Map<String, byte[]> fields, String name) {
        byte[] value = fields.get(name);
        if (value == null) {
            throw new IllegalArgumentException("history entry: no " + name);
        }
        try {
            return Long.parseLong(new String(value, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("history entry: " + name + " is not a number", e);
        }
    }

    private static String read(String file) {
        try (InputStream in = StorageFormat.class.getResourceAsStream("/io/hourglass/lua/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no Lua script " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
