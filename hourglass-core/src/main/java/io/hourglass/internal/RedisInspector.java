package io.hourglass.internal;

import io.hourglass.HistoryMinute;
import io.hourglass.Inspector;
import io.hourglass.JobPage;
import io.hourglass.JobState;
import io.hourglass.RunNowOutcome;
import io.hourglass.TopicConfig;
import io.hourglass.TopicOverview;
import io.hourglass.validation.Names;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The implementation of {@link Inspector}: the reads of one topic (overview, history) and its switches (pause, resume,
 * run now) here; the paged listing in {@link JobListing}, the actions on many jobs in {@link BulkActions}. Every script
 * runs on each shard of the topic ({@link ShardCalls}) and the replies are merged. Stateless apart from what it is
 * given, so thread-safe.
 */
final class RedisInspector implements Inspector {
    private final ShardCalls calls;
    private final TopicRegistry topics;
    private final JobListing listing;
    private final BulkActions bulk;
    private final TopicConfigs configs;

    RedisInspector(ClientContext context, Scripts scripts, TopicRegistry topics) {
        this.calls = new ShardCalls(context, scripts);
        this.topics = topics;
        this.listing = new JobListing(calls);
        this.bulk = new BulkActions(calls);
        this.configs = new TopicConfigs(context.redis(), context.layout(), scripts);
    }

    @Override
    public List<TopicOverview> topics() {
        List<TopicOverview> out = new ArrayList<>();
        for (String topic : new TreeSet<>(topics.all())) {
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
        long trimmed = 0;
        long completed = 0;
        for (List<Object> reply : calls.onEveryShard(Script.OVERVIEW, topic, "topic overview")) {
            long now = (Long) reply.get(0);
            trimmed += (Long) reply.get(8);
            completed += (Long) reply.get(9);
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
                nextDue < 0 ? null : Instant.ofEpochMilli(nextDue),
                trimmed,
                completed);
    }

    @Override
    public long expired(String topic) {
        Names.checkTopic(topic);
        long total = 0;
        for (List<Object> reply : calls.onEveryShard(Script.EXPIRED, topic, "expired count")) {
            total += (Long) reply.get(0);
        }
        return total;
    }

    @Override
    public List<HistoryMinute> history(String topic) {
        Names.checkTopic(topic);
        Map<Long, long[]> minutes = new TreeMap<>();
        for (List<Object> reply : calls.onEveryShard(Script.HISTORY, topic, "history")) {
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
        calls.onEveryShard(Script.PAUSE, topic, "pause", Bytes.of("1"));
    }

    @Override
    public void resume(String topic) {
        Names.checkTopic(topic);
        calls.onEveryShard(Script.PAUSE, topic, "resume", Bytes.of("0"));
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
        String outcome = Bytes.str(calls.onShard(Script.RUN_NOW, topic, calls.shardOf(id), "run now", Bytes.of(id))
                .get(0));
        return outcome.equals("MISSING") ? RunNowOutcome.NOT_FOUND : RunNowOutcome.valueOf(outcome);
    }

    @Override
    public JobPage jobs(String topic, JobState state, String cursor, int limit) {
        return listing.jobs(topic, state, cursor, limit);
    }

    @Override
    public long requeueAllDead(String topic) {
        return bulk.allDead(topic, "requeue");
    }

    @Override
    public long requeueDead(String topic, Collection<String> ids) {
        return bulk.deadByIds(topic, ids, "requeue");
    }

    @Override
    public long deleteAllDead(String topic) {
        return bulk.allDead(topic, "delete");
    }

    @Override
    public long deleteDead(String topic, Collection<String> ids) {
        return bulk.deadByIds(topic, ids, "delete");
    }

    @Override
    public long purge(String topic, JobState state) {
        return bulk.purge(topic, state);
    }
}
