package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.InvariantChecker;
import io.hourglass.testkit.RedisTest;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The checker that runs after every integration test must itself catch each kind of corruption. */
@RedisTest(checkInvariants = false)
class InvariantCheckerIntegrationTests {
    private static final String P = "hg:{test:orders:0}:";

    private static void corrupt(RedisServerProcess redis, Consumer<RedisCommands<String, String>> change) {
        RawRedis.call(redis, r -> {
            change.accept(r);
            return null;
        });
    }

    /** Two jobs whose records have a header (their payloads begin with a digit), so they hold their due times. */
    private static void scheduleTwo(Hourglass hourglass) {
        hourglass.schedule(JobRequest.builder("orders")
                .id("a")
                .payload("1")
                .delay(Duration.ofHours(1))
                .build());
        hourglass.schedule(JobRequest.builder("orders").id("b").payload("2").build());
    }

    @Test
    void aHealthyNamespaceHasNoViolations(Hourglass hourglass, RedisServerProcess redis) {
        scheduleTwo(hourglass);
        hourglass.reserve("orders", 1, null);
        assertThat(InvariantChecker.check(redis.uri())).isEmpty();
    }

    @Test
    void findsAJobInTwoStates(io.hourglass.testkit.HourglassFactory factory, RedisServerProcess redis) {
        scheduleTwo(factory.create(b -> b.namespace("test")));
        corrupt(redis, r -> r.zadd(P + "w:active", 1, "a"));
        assertThat(InvariantChecker.check(redis.uri())).anyMatch(v -> v.contains("job a is in both"));
    }

    @Test
    void findsAnIndexEntryWithoutAJob(io.hourglass.testkit.HourglassFactory factory, RedisServerProcess redis) {
        scheduleTwo(factory.create(b -> b.namespace("test")));
        corrupt(redis, r -> r.hdel(P + "jobs", "b"));
        assertThat(InvariantChecker.check(redis.uri())).anyMatch(v -> v.contains("holds b but no job record"));
    }

    @Test
    void findsAnOrphanPayload(io.hourglass.testkit.HourglassFactory factory, RedisServerProcess redis) {
        scheduleTwo(factory.create(b -> b.namespace("test")));
        corrupt(redis, r -> r.zrem(P + "w:waiting", "a"));
        assertThat(InvariantChecker.check(redis.uri())).anyMatch(v -> v.contains("job a has a record but is in no"));
    }

    @Test
    void findsAnActiveJobWithoutReceiptAndAWrongDueScore(
            io.hourglass.testkit.HourglassFactory factory, RedisServerProcess redis) {
        scheduleTwo(factory.create(b -> b.namespace("test")));
        corrupt(redis, r -> {
            r.zrem(P + "w:waiting", "b");
            r.zadd(P + "w:active", 1, "b");
            r.zadd(P + "w:waiting", 42, "a");
            r.hset(P + "errors", "ghost", "x");
        });
        assertThat(InvariantChecker.check(redis.uri()))
                .anyMatch(v -> v.contains("job b is in w:active without a receipt"))
                .anyMatch(v -> v.contains("job a is in w:waiting with score 42"))
                .anyMatch(v -> v.contains("last error kept for ghost"));
    }

    @Test
    void findsAPrioritisedJobOutsideItsBandAndADefaultOneInPrio(
            io.hourglass.testkit.HourglassFactory factory, RedisServerProcess redis) {
        Hourglass hourglass = factory.create(b -> b.namespace("test"));
        hourglass.schedule(JobRequest.builder("orders")
                .id("p")
                .priority(3)
                .delay(Duration.ofHours(1))
                .build());
        scheduleTwo(hourglass);
        corrupt(redis, r -> {
            r.zadd(P + "w:prio", 7, "p");
            r.zrem(P + "w:waiting", "a");
            r.zadd(P + "w:prio", 1, "a");
        });
        assertThat(InvariantChecker.check(redis.uri()))
                .anyMatch(v -> v.contains("job p is in w:prio with score 7"))
                .anyMatch(v -> v.contains("job a is in w:prio but its priority 0 belongs in w:waiting"));
    }

    @Test
    void findsARetainedCompletedJobOutsideTheListingsSet(
            io.hourglass.testkit.HourglassFactory factory, RedisServerProcess redis) {
        Hourglass hourglass =
                factory.create(b -> b.namespace("test").shards(1).completedRetention(Duration.ofHours(1)));
        scheduleTwo(hourglass);
        io.hourglass.Delivery d = hourglass.reserve("orders", 1, null).get(0);
        hourglass.ack("orders", d.id(), d.receipt());
        assertThat(InvariantChecker.check(redis.uri())).isEmpty();
        corrupt(redis, r -> {
            r.zrem(P + "completed", "b");
            r.rpush(P + "ended:order", "b");
        });
        assertThat(InvariantChecker.check(redis.uri()))
                .anyMatch(v -> v.contains("ended retains completed jobs [b] but completed holds []"))
                .anyMatch(v -> v.contains("ended:order holds b 1 times, expected 0"));
    }

    @Test
    void findsALeaseOutsideActiveAndAttemptsPastTheLimit(
            io.hourglass.testkit.HourglassFactory factory, RedisServerProcess redis) {
        scheduleTwo(factory.create(b -> b.namespace("test")));
        corrupt(redis, r -> {
            r.hset(P + "leases", "a", "1-x");
            r.hset(P + "leases", "ghost", "2-x");
            String b = r.hget(P + "jobs", "b");
            r.hset(P + "jobs", "b", b.substring(0, b.indexOf('\n')) + "|10" + b.substring(b.indexOf('\n')));
        });
        assertThat(InvariantChecker.check(redis.uri()))
                .anyMatch(v -> v.contains("job a is in w:waiting but still holds receipt 1-x"))
                .anyMatch(v -> v.contains("lease kept for ghost"))
                .anyMatch(v -> v.contains("job b is in w:waiting with 10 failed attempts, outside 0..9"));
    }

    @Test
    void findsABareRecordThatLostItsDueTime(io.hourglass.testkit.HourglassFactory factory, RedisServerProcess redis) {
        Hourglass hourglass = factory.create(b -> b.namespace("test"));
        hourglass.schedule(JobRequest.builder("orders").id("a").payload("x").build());
        hourglass.schedule(JobRequest.builder("orders").id("b").payload("y").build());
        corrupt(redis, r -> {
            r.zrem(P + "w:waiting", "a", "b");
            r.zadd(P + "dead", 1, "a");
            r.zadd(P + "w:active", 1, "b");
            r.hset(P + "leases", "b", "1-x~");
        });
        assertThat(InvariantChecker.check(redis.uri()))
                .anyMatch(v -> v.contains("job a has a bare record in dead, where it has no due time"))
                .anyMatch(v -> v.contains("job b has a bare record but its receipt 1-x~ carries no due time"));
    }
}
