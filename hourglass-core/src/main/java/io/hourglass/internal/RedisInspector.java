package io.hourglass.internal;

import io.hourglass.HistoryMinute;
import io.hourglass.Inspector;
import io.hourglass.JobPage;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.RunNowOutcome;
import io.hourglass.TopicConfig;
import io.hourglass.TopicOverview;
import io.hourglass.validation.Names;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The implementation of {@link Inspector}: validation, the inspector scripts' arguments and replies, the merge of the
 * shards' pages and the loops of the bulk actions. Stateless apart from what it is given, so thread-safe.
 */
final class RedisInspector implements Inspector {
    private static final Base64.Encoder CURSOR_TEXT = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder CURSOR_BYTES = Base64.getUrlDecoder();

    private final RedisGateway redis;
    private final KeyLayout layout;
    private final Scripts scripts;
    private final TopicRegistry topics;
    private final TopicConfigs configs;

    RedisInspector(ClientContext context, Scripts scripts, TopicRegistry topics) {
        this.redis = context.redis();
        this.layout = context.layout();
        this.scripts = scripts;
        this.topics = topics;
        this.configs = new TopicConfigs(redis, layout, scripts);
    }

    @Override
    public List<TopicOverview> topics() {
        List<TopicOverview> out = new ArrayList<>();
        for (String topic : new java.util.TreeSet<>(topics.all())) {
            out.add(topic(topic));
        }
        return out;
    }

    @Override
    public TopicOverview topic(String topic) {
        Names.checkTopic(topic);
        long[] counts = new long[4];
        boolean paused = false;
        long latencyMs = 0;
        long nextDue = -1;
        for (List<Object> reply : onEveryShard(Script.OVERVIEW, topic, "topic overview")) {
            long now = (Long) reply.get(0);
            for (int i = 0; i < 4; i++) {
                counts[i] += (Long) reply.get(1 + i);
            }
            paused |= (Long) reply.get(5) == 1;
            long oldestReady = (Long) reply.get(6);
            if (oldestReady >= 0) {
                latencyMs = Math.max(latencyMs, now - oldestReady);
            }
            long due = (Long) reply.get(7);
            if (due >= 0 && (nextDue < 0 || due < nextDue)) {
                nextDue = due;
            }
        }
        return new TopicOverview(
                topic,
                counts[0],
                counts[1],
                counts[2],
                counts[3],
                paused,
                Duration.ofMillis(latencyMs),
                nextDue < 0 ? null : Instant.ofEpochMilli(nextDue));
    }

    @Override
    public JobPage jobs(String topic, JobState state, String cursor, int limit) {
        Names.checkTopic(topic);
        checkState(state);
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit: must be between 1 and " + MAX_PAGE + ", got " + limit);
        }
        Cursor after = cursor == null ? null : Cursor.decode(cursor, state);
        byte[][] args = {
            bytes(state.name()),
            bytes(after == null ? "" : Long.toString(after.score())),
            bytes(after == null ? "" : after.id()),
            bytes(Integer.toString(limit)),
            bytes(Integer.toString(PREVIEW_BYTES))
        };
        record Entry(long score, JobSummary job) {}
        List<Entry> all = new ArrayList<>();
        boolean more = false;
        for (List<Object> reply : onEveryShard(Script.JOBS, topic, "list jobs", args)) {
            more |= (Long) reply.get(0) == 1;
            for (int i = 1; i + 5 < reply.size(); i += 6) {
                long score = (Long) reply.get(i + 1);
                all.add(new Entry(
                        score,
                        summary(
                                state,
                                str(reply.get(i)),
                                score,
                                (byte[]) reply.get(i + 2),
                                (Long) reply.get(i + 3),
                                (byte[]) reply.get(i + 4),
                                str(reply.get(i + 5)))));
            }
        }
        all.sort(Comparator.comparingLong(Entry::score)
                .thenComparing(e -> e.job().id()));
        more |= all.size() > limit;
        List<JobSummary> page = all.stream().limit(limit).map(Entry::job).toList();
        String next = null;
        if (more && !page.isEmpty()) {
            Entry last = all.get(page.size() - 1);
            next = new Cursor(state, last.score(), last.job().id()).encode();
        }
        return new JobPage(page, next);
    }

    private static JobSummary summary(
            JobState state, String id, long score, byte[] header, long size, byte[] preview, String error) {
        byte[] raw = new byte[header.length + 1];
        System.arraycopy(header, 0, raw, 0, header.length);
        raw[header.length] = '\n';
        JobRecord r = JobRecord.decode(raw);
        return new JobSummary(
                id,
                state,
                Instant.ofEpochMilli(r.dueMs()),
                r.attempt(state == JobState.ACTIVE),
                r.maxAttempts(),
                error.isEmpty() ? null : error,
                state == JobState.ACTIVE ? Instant.ofEpochMilli(score) : null,
                state == JobState.DEAD ? Instant.ofEpochMilli(score) : null,
                (int) size,
                preview,
                previewText(preview, size > preview.length));
    }

    /** The preview as UTF-8 text, or null; a character that the preview's end cuts off is dropped, not an error. */
    static String previewText(byte[] preview, boolean cut) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(preview);
        CharBuffer out = CharBuffer.allocate(preview.length);
        // Not at the end of input when cut: an incomplete last character is left unread instead of refused.
        if (decoder.decode(in, out, !cut).isError()) {
            return null;
        }
        return out.flip().toString();
    }

    @Override
    public List<HistoryMinute> history(String topic) {
        Names.checkTopic(topic);
        Map<Long, long[]> minutes = new TreeMap<>();
        for (List<Object> reply : onEveryShard(Script.HISTORY, topic, "history")) {
            for (int i = 0; i + 2 < reply.size(); i += 3) {
                long[] sum = minutes.computeIfAbsent((Long) reply.get(i), m -> new long[2]);
                sum[0] += (Long) reply.get(i + 1);
                sum[1] += (Long) reply.get(i + 2);
            }
        }
        List<HistoryMinute> out = new ArrayList<>(minutes.size());
        minutes.forEach(
                (minute, sum) -> out.add(new HistoryMinute(Instant.ofEpochMilli(minute * 60_000), sum[0], sum[1])));
        return out;
    }

    @Override
    public void pause(String topic) {
        Names.checkTopic(topic);
        onEveryShard(Script.PAUSE, topic, "pause", bytes("1"));
    }

    @Override
    public void resume(String topic) {
        Names.checkTopic(topic);
        onEveryShard(Script.PAUSE, topic, "resume", bytes("0"));
    }

    @Override
    public TopicConfig topicConfig(String topic) {
        return configs.read(topic);
    }

    @Override
    public void configureTopic(String topic, TopicConfig config) {
        configs.write(topic, config);
    }

    @Override
    public RunNowOutcome runNow(String topic, String id) {
        Names.checkTopic(topic);
        Names.checkId(id);
        String outcome = str(redis.await(scripts.call(Script.RUN_NOW, topic, layout.shardOf(id), bytes(id)), "run now")
                .get(0));
        return outcome.equals("MISSING") ? RunNowOutcome.NOT_FOUND : RunNowOutcome.valueOf(outcome);
    }

    @Override
    public long requeueAllDead(String topic) {
        return allDead(topic, "requeue");
    }

    @Override
    public long requeueDead(String topic, Collection<String> ids) {
        return deadByIds(topic, ids, "requeue");
    }

    @Override
    public long deleteAllDead(String topic) {
        return allDead(topic, "delete");
    }

    @Override
    public long deleteDead(String topic, Collection<String> ids) {
        return deadByIds(topic, ids, "delete");
    }

    private long allDead(String topic, String action) {
        Names.checkTopic(topic);
        long done = 0;
        for (int shard = 0; shard < layout.shards(); shard++) {
            while (true) {
                List<Object> reply = redis.await(
                        scripts.call(Script.DEAD_BULK, topic, shard, bytes(action), bytes(Integer.toString(CHUNK))),
                        action + " dead letters");
                long chunk = (Long) reply.get(0);
                done += chunk;
                // A chunk that found nothing to do, or emptied the shard, ends it; jobs that die meanwhile may be
                // taken too, but never keep this loop going past an empty chunk.
                if (chunk == 0 || (Long) reply.get(1) == 0) {
                    break;
                }
            }
        }
        return done;
    }

    private long deadByIds(String topic, Collection<String> ids, String action) {
        Names.checkTopic(topic);
        if (ids == null || ids.isEmpty()) {
            throw new IllegalArgumentException("ids: must hold at least one id, got " + ids);
        }
        Map<Integer, List<String>> byShard = new TreeMap<>();
        Set<String> distinct = new LinkedHashSet<>();
        for (String id : ids) {
            if (id == null) {
                throw new IllegalArgumentException("ids: must not hold null");
            }
            Names.checkId(id);
            distinct.add(id);
        }
        for (String id : distinct) {
            byShard.computeIfAbsent(layout.shardOf(id), s -> new ArrayList<>()).add(id);
        }
        long done = 0;
        for (Map.Entry<Integer, List<String>> e : byShard.entrySet()) {
            List<String> shardIds = e.getValue();
            for (int from = 0; from < shardIds.size(); from += CHUNK) {
                List<String> chunk = shardIds.subList(from, Math.min(from + CHUNK, shardIds.size()));
                byte[][] args = new byte[2 + chunk.size()][];
                args[0] = bytes(action);
                args[1] = bytes(Integer.toString(CHUNK));
                for (int i = 0; i < chunk.size(); i++) {
                    args[2 + i] = bytes(chunk.get(i));
                }
                done += (Long)
                        redis.await(scripts.call(Script.DEAD_BULK, topic, e.getKey(), args), action + " dead letters")
                                .get(0);
            }
        }
        return done;
    }

    @Override
    public long purge(String topic, JobState state) {
        Names.checkTopic(topic);
        checkState(state);
        long done = 0;
        for (int shard = 0; shard < layout.shards(); shard++) {
            while (true) {
                List<Object> reply = redis.await(
                        scripts.call(Script.PURGE, topic, shard, bytes(state.name()), bytes(Integer.toString(CHUNK))),
                        "purge");
                done += (Long) reply.get(0);
                if ((Long) reply.get(1) == 0) {
                    break;
                }
            }
        }
        return done;
    }

    /** Runs a script on every shard of the topic at once and waits for each reply, in shard order. */
    private List<List<Object>> onEveryShard(Script script, String topic, String what, byte[]... args) {
        List<CompletableFuture<List<Object>>> calls = new ArrayList<>(layout.shards());
        for (int shard = 0; shard < layout.shards(); shard++) {
            calls.add(scripts.call(script, topic, shard, args));
        }
        List<List<Object>> replies = new ArrayList<>(calls.size());
        for (CompletableFuture<List<Object>> c : calls) {
            replies.add(redis.await(c, what));
        }
        return replies;
    }

    private static void checkState(JobState state) {
        if (state == null) {
            throw new IllegalArgumentException("state: must be one of SCHEDULED, READY, ACTIVE, DEAD, got null");
        }
    }

    /** Where a page ends: the last job's score and id, and the state the page listed. */
    record Cursor(JobState state, long score, String id) {
        String encode() {
            return CURSOR_TEXT.encodeToString(bytes(state.name() + ":" + score + ":" + id));
        }

        static Cursor decode(String text, JobState state) {
            try {
                String[] parts = new String(CURSOR_BYTES.decode(text), StandardCharsets.UTF_8).split(":", 3);
                Cursor c = new Cursor(JobState.valueOf(parts[0]), Long.parseLong(parts[1]), Names.checkId(parts[2]));
                if (c.state() != state) {
                    throw new IllegalArgumentException("listed " + c.state() + ", not " + state);
                }
                return c;
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "cursor: must be a nextCursor of a page of the same topic and state, got '"
                                + (text.length() > 140 ? text.substring(0, 140) + "..." : text) + "'",
                        e);
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String str(Object o) {
        return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o);
    }
}
