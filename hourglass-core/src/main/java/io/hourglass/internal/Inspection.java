package io.hourglass.internal;

import io.hourglass.HourglassException;
import io.hourglass.JobInfo;
import io.hourglass.TopicStats;
import io.hourglass.validation.Names;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The inspector side of {@link io.hourglass.Hourglass}: topics, per-state counts and the dead letters (list, requeue,
 * delete). Reads ask every shard of the topic and add up or merge the replies. Thread-safe.
 */
final class Inspection {
    private final RedisGateway redis;
    private final KeyLayout layout;
    private final Scripts scripts;
    private final TopicRegistry topics;

    Inspection(ClientContext context, Scripts scripts, TopicRegistry topics) {
        this.redis = context.redis();
        this.layout = context.layout();
        this.scripts = scripts;
        this.topics = topics;
    }

    boolean topicExists(String topic) {
        Names.checkTopic(topic);
        return topics.contains(topic);
    }

    List<TopicStats> topics() {
        List<TopicStats> out = new ArrayList<>();
        for (String topic : topics.all()) {
            out.add(stats(topic));
        }
        return out;
    }

    TopicStats stats(String topic) {
        Names.checkTopic(topic);
        List<CompletableFuture<long[]>> calls = new ArrayList<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            calls.add(scripts.stats(topic, shard));
        }
        long[] sum = new long[4];
        for (CompletableFuture<long[]> c : calls) {
            long[] counts = redis.await(c, "stats");
            for (int i = 0; i < 4; i++) {
                sum[i] += counts[i];
            }
        }
        return new TopicStats(topic, sum[0], sum[1], sum[2], sum[3]);
    }

    List<JobInfo> deadLetters(String topic, int offset, int limit) {
        Names.checkTopic(topic);
        if (offset < 0) {
            throw new IllegalArgumentException("offset: must be zero or positive, got " + offset);
        }
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit: must be between 1 and 1000, got " + limit);
        }
        List<Scripts.DeadLetter> all = new ArrayList<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            all.addAll(redis.await(scripts.dead(topic, shard, offset + limit), "dead letters"));
        }
        all.sort(Comparator.comparingLong(Scripts.DeadLetter::diedAtMs)
                .thenComparing(d -> d.info().id()));
        return all.stream()
                .skip(offset)
                .limit(limit)
                .map(Scripts.DeadLetter::info)
                .toList();
    }

    boolean requeueDead(String topic, String id) {
        Names.checkTopic(topic);
        Names.checkId(id);
        String outcome = redis.await(scripts.requeue(topic, id), "requeue");
        if (outcome.equals("NOT_DEAD")) {
            throw new HourglassException("job '" + id + "' in topic '" + topic + "' is not dead");
        }
        return outcome.equals("OK");
    }

    boolean deleteDead(String topic, String id) {
        Names.checkTopic(topic);
        Names.checkId(id);
        return redis.await(scripts.cancel(topic, id, "DEAD"), "delete dead letter")
                .equals("DEAD");
    }
}
