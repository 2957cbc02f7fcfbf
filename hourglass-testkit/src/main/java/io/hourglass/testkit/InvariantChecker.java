package io.hourglass.testkit;

import io.hourglass.StorageFormat;
import io.hourglass.StorageFormat.StoredRecord;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Proves invariant 2 in ARCHITECTURE.md ("one place at a time") and the record's consistency over every Hourglass key
 * of a Redis server: each job is in exactly one of its shard's seven sorted sets, in the lane its record asks for; no
 * sorted-set entry lacks a record (no index entry without a job); no record lacks a place (no orphan payload); no last
 * error lacks a job; a waiting job is in the set its priority asks for ({@code waiting} at the default, else
 * {@code prio}), with the score {@link StorageFormat#waitingScore} gives its record; exactly the active jobs hold a
 * receipt in the shard's {@code leases} hash, and no lease lacks a job; a bare record ({@link StorageFormat#isBare}) is
 * only in {@code w:waiting} or, with its due time in its receipt, in {@code w:active}; failed attempts stay within
 * bounds (below maxAttempts unless the job is dead); an id reserved by the idempotency window ({@code ended}, in order
 * in {@code ended:order}, or by its end in {@code completed} for a retained completed job) is not a job: it has no
 * record; {@code completed} holds exactly the retained completed jobs of {@code ended}; {@code ended:order} holds each
 * other entry's id once more than the entry's count of stale elements ({@code ~<id>}), and an id without an entry as
 * often as that count. A sorted set {@code ended:expiry} left by an earlier version is accepted while the scripts drain
 * it; its ids have entries and no elements. Thread-safe (stateless).
 *
 * <p>Meant for a quiescent Redis (no worker moving jobs while it scans), as after a test.
 */
public final class InvariantChecker {
    private static final String[] PLACES = {"w:waiting", "w:active", "c:waiting", "c:active", "dead", "w:prio", "c:prio"
    };
    /** The idempotency window's sorted set of versions before {@code ended:order}. */
    private static final String LEGACY_ENDED_EXPIRY = "ended:expiry";
    /** A retained completed job's entry goes on with its result's length, its result and its record. */
    private static final Pattern ENDED_VALUE =
            Pattern.compile("(?s)[ACD][0-9]+(\\+[0-9]+)?|A[0-9]+(\\+[0-9]+)?\\|[0-9]*\n.*");

    private InvariantChecker() {}

    /**
     * Checks every Hourglass key on the server.
     *
     * @param redisUri the server, e.g. {@code redis://127.0.0.1:6379}
     * @return one line per violation; empty when all invariants hold
     */
    public static List<String> check(String redisUri) {
        return AdminRedis.call(redisUri, ByteArrayCodec.INSTANCE, InvariantChecker::check);
    }

    static List<String> check(RedisCommands<byte[], byte[]> redis) {
        Map<String, List<String>> shards = new TreeMap<>();
        List<String> violations = new ArrayList<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<byte[]> page =
                    redis.scan(cursor, ScanArgs.Builder.matches("hg:{*").limit(1000));
            for (byte[] k : page.getKeys()) {
                String key = new String(k, StandardCharsets.UTF_8);
                int close = key.indexOf("}:");
                String tag = close < 0 ? "" : key.substring(4, close);
                if (tag.split(":", -1).length == 3) {
                    shards.computeIfAbsent(key.substring(0, close + 2), p -> new ArrayList<>())
                            .add(key.substring(close + 2));
                } else if (!key.endsWith("}:topics") && !isScheduleKey(key)) {
                    violations.add("unknown Hourglass key " + key);
                }
            }
            cursor = page;
        } while (!cursor.isFinished());
        shards.forEach((prefix, suffixes) -> checkShard(redis, prefix, suffixes, violations));
        return violations;
    }

    /** The namespace's recurring schedules: definitions, latest fired ticks, version. */
    private static boolean isScheduleKey(String key) {
        return key.endsWith("}:schedules") || key.endsWith("}:schedules:fired") || key.endsWith("}:schedules:version");
    }

    private static void checkShard(
            RedisCommands<byte[], byte[]> redis, String prefix, List<String> suffixes, List<String> violations) {
        for (String suffix : suffixes) {
            if (!StorageFormat.shardKeySuffixes().contains(suffix) && !suffix.equals(LEGACY_ENDED_EXPIRY)) {
                violations.add("unknown key " + prefix + suffix);
            }
        }
        Map<String, String> placeOf = new HashMap<>();
        Map<String, Double> scoreOf = new HashMap<>();
        for (String place : PLACES) {
            for (ScoredValue<byte[]> e : redis.zrangeWithScores(bytes(prefix + place), 0, -1)) {
                String id = new String(e.getValue(), StandardCharsets.UTF_8);
                String earlier = placeOf.put(id, place);
                if (earlier != null) {
                    violations.add(prefix + ": job " + id + " is in both " + earlier + " and " + place);
                }
                scoreOf.put(id, e.getScore());
            }
        }
        Map<String, String> receipts = new HashMap<>();
        redis.hgetall(bytes(prefix + "leases"))
                .forEach((k, v) ->
                        receipts.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
        Map<String, StoredRecord> records = new HashMap<>();
        Set<String> stored = new HashSet<>();
        redis.hgetall(bytes(prefix + "jobs")).forEach((k, v) -> {
            String id = new String(k, StandardCharsets.UTF_8);
            stored.add(id);
            try {
                if (StorageFormat.isBare(v)) {
                    bareDue(prefix, id, placeOf.get(id), scoreOf.get(id), receipts.get(id), violations)
                            .ifPresent(due -> records.put(id, StorageFormat.decode(v, due)));
                } else {
                    records.put(id, StorageFormat.decode(v));
                }
            } catch (RuntimeException e) {
                violations.add(prefix + ": job " + id + " has a malformed record: " + e.getMessage());
            }
        });
        for (String id : new TreeSet<>(placeOf.keySet())) {
            if (!stored.contains(id)) {
                violations.add(prefix + ": " + placeOf.get(id) + " holds " + id + " but no job record exists");
            }
        }
        records.forEach(
                (id, r) -> checkJob(prefix, id, r, placeOf.get(id), scoreOf.get(id), receipts.get(id), violations));
        for (String id : new TreeSet<>(receipts.keySet())) {
            if (!stored.contains(id)) {
                violations.add(prefix + ": lease kept for " + id + " but no job record exists");
            }
        }
        for (byte[] k : redis.hkeys(bytes(prefix + "errors"))) {
            String id = new String(k, StandardCharsets.UTF_8);
            if (!stored.contains(id)) {
                violations.add(prefix + ": last error kept for " + id + " but no job record exists");
            }
        }
        checkReservations(redis, prefix, stored, violations);
    }

    private static void checkReservations(
            RedisCommands<byte[], byte[]> redis, String prefix, Set<String> jobs, List<String> violations) {
        Map<String, String> ended = new TreeMap<>();
        Map<String, Long> stale = new HashMap<>();
        redis.hgetall(bytes(prefix + "ended")).forEach((k, v) -> {
            String field = new String(k, StandardCharsets.UTF_8);
            if (field.startsWith("~")) {
                stale.put(field.substring(1), Long.parseLong(new String(v, StandardCharsets.US_ASCII)));
            } else {
                ended.put(field, new String(v, StandardCharsets.US_ASCII));
            }
        });
        Map<String, Long> elements = new TreeMap<>();
        for (byte[] id : redis.lrange(bytes(prefix + "ended:order"), 0, -1)) {
            elements.merge(new String(id, StandardCharsets.UTF_8), 1L, Long::sum);
        }
        TreeSet<String> completed = new TreeSet<>();
        for (byte[] id : redis.zrange(bytes(prefix + "completed"), 0, -1)) {
            completed.add(new String(id, StandardCharsets.UTF_8));
        }
        TreeSet<String> retained = new TreeSet<>();
        ended.forEach((id, outcome) -> {
            if (outcome.matches("(?s)A[0-9]+\\|.*")) {
                retained.add(id);
            }
        });
        if (!completed.equals(retained)) {
            violations.add(prefix + ": ended retains completed jobs " + retained + " but completed holds " + completed);
        }
        TreeSet<String> legacy = new TreeSet<>();
        for (byte[] id : redis.zrange(bytes(prefix + LEGACY_ENDED_EXPIRY), 0, -1)) {
            legacy.add(new String(id, StandardCharsets.UTF_8));
        }
        TreeSet<String> ids = new TreeSet<>(ended.keySet());
        ids.addAll(elements.keySet());
        ids.addAll(stale.keySet());
        for (String id : ids) {
            long expected = stale.getOrDefault(id, 0L)
                    + (ended.containsKey(id) && !legacy.contains(id) && !retained.contains(id) ? 1 : 0);
            if (stale.containsKey(id) && stale.get(id) <= 0) {
                violations.add(prefix + ": ended counts " + stale.get(id) + " stale elements of " + id);
            }
            if (elements.getOrDefault(id, 0L) != expected) {
                violations.add(prefix + ": ended:order holds " + id + " " + elements.getOrDefault(id, 0L)
                        + " times, expected " + expected);
            }
        }
        if (!ended.keySet().containsAll(legacy)) {
            violations.add(prefix + ": ended:expiry holds ids without an entry in ended");
        }
        ended.forEach((id, outcome) -> {
            if (!ENDED_VALUE.matcher(outcome).matches()) {
                violations.add(prefix + ": reservation of " + id + " has a malformed outcome " + outcome);
            }
            if (jobs.contains(id)) {
                violations.add(prefix + ": " + id + " is both a job and a reserved id");
            }
        });
    }

    /**
     * The due time of a bare record (the payload alone): its score while it waits in {@code w:waiting}, its receipt's
     * while it is ACTIVE in {@code w:active}; a bare record anywhere else has lost its due time.
     */
    private static OptionalLong bareDue(
            String prefix, String id, String place, Double score, String receipt, List<String> violations) {
        if ("w:waiting".equals(place)) {
            return OptionalLong.of(score.longValue());
        }
        if ("w:active".equals(place) && receipt != null) {
            OptionalLong due = StorageFormat.dueOfReceipt(receipt);
            if (due.isEmpty()) {
                violations.add(prefix + ": job " + id + " has a bare record but its receipt " + receipt
                        + " carries no due time");
            }
            return due;
        }
        violations.add(prefix + ": job " + id + " has a bare record in " + (place == null ? "no state set" : place)
                + ", where it has no due time");
        return OptionalLong.empty();
    }

    private static void checkJob(
            String prefix,
            String id,
            StoredRecord r,
            String place,
            Double score,
            String receipt,
            List<String> violations) {
        String where = prefix + ": job " + id;
        if (place == null) {
            violations.add(where + " has a record but is in no state set (orphan payload)");
            return;
        }
        String lane = r.callbackUrl().isEmpty() ? "w:" : "c:";
        if (!place.equals("dead") && !place.startsWith(lane)) {
            violations.add(where + " is in " + place + " but its record belongs to lane " + lane);
        }
        boolean waiting = place.endsWith("waiting") || place.endsWith("prio");
        if (waiting && !place.equals(StorageFormat.waitingSuffix(r))) {
            violations.add(where + " is in " + place + " but its priority " + r.priority() + " belongs in "
                    + StorageFormat.waitingSuffix(r));
        } else if (waiting && score != StorageFormat.waitingScore(r)) {
            violations.add(
                    where + " is in " + place + " with score " + score.longValue() + " but is due at " + r.dueMs());
        }
        boolean active = place.endsWith("active");
        if (active == (receipt == null)) {
            violations.add(where + " is in " + place
                    + (active ? " without a receipt" : " but still holds receipt " + receipt));
        }
        int most = place.equals("dead") ? r.maxAttempts() : r.maxAttempts() - 1;
        if (r.failedAttempts() < 0 || r.failedAttempts() > most) {
            violations.add(
                    where + " is in " + place + " with " + r.failedAttempts() + " failed attempts, outside 0.." + most);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
