package io.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.hourglass.Hourglass;
import io.hourglass.JobRequest;
import io.hourglass.JobState;
import io.hourglass.JobSummary;
import io.hourglass.RedisUnavailableException;
import io.hourglass.embedded.RedisServerProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The scripts run as one Redis Functions library where the server takes it (Redis 7.0+), and by EVALSHA where it does
 * not: on Redis 6.2, for an ACL user without FUNCTION, and for the calls that find the library gone.
 */
class ScriptLibraryIntegrationTests {

    @Test
    void onRedis7TheScriptsRunAsTheLibrarysFunctions() throws IOException {
        try (RedisServerProcess redis = RedisServerProcess.builder().start()) {
            assumeFunctions(redis);
            runJobs(redis, redis.uri(), 20);
            List<java.util.Map<String, Object>> libraries = RawRedis.call(redis, r -> r.functionList());
            assertThat(libraries).as("the library, loaded once").singleElement().satisfies(library -> assertThat(
                            String.valueOf(library.get("library_name")))
                    .startsWith("hourglass_"));
            assertThat(calls(redis, "fcall")).isPositive();
            assertThat(calls(redis, "evalsha") + calls(redis, "eval")).isZero();
        }
    }

    @Test
    void anAclUserWithoutFunctionRunsTheScriptsByEvalsha() throws IOException {
        try (RedisServerProcess redis = RedisServerProcess.builder()
                .arg("user", "worker", "on", ">s3cret-pass", "~hg:*", "&hg:{default}:wake:*", "+@all", "-function")
                .start()) {
            assumeFunctions(redis);
            runJobs(redis, "redis://worker:s3cret-pass@" + redis.host() + ":" + redis.port(), 20);
            assertThat(calls(redis, "fcall")).isZero();
            assertThat(calls(redis, "evalsha")).isPositive();
        }
    }

    @Test
    void callsThatFindTheLibraryGoneRunByScriptAndTheLibraryIsLoadedAgain() throws IOException {
        try (RedisServerProcess redis = RedisServerProcess.builder().start()) {
            assumeFunctions(redis);
            try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
                AtomicInteger delivered = new AtomicInteger();
                hourglass.subscribe("t", job -> delivered.incrementAndGet());
                hourglass.schedule(JobRequest.builder("t").build());
                await().atMost(Duration.ofSeconds(5)).until(() -> delivered.get() == 1);

                RawRedis.call(redis, r -> r.functionFlush(io.lettuce.core.FlushMode.SYNC));
                for (int i = 0; i < 10; i++) {
                    hourglass.schedule(JobRequest.builder("t").build());
                }
                await().atMost(Duration.ofSeconds(5)).until(() -> delivered.get() == 11);
                await().atMost(Duration.ofSeconds(5))
                        .alias("the library loaded again")
                        .until(() ->
                                !RawRedis.call(redis, r -> r.functionList()).isEmpty());
            }
        }
    }

    /**
     * A function that may write is refused whole while Redis is over {@code maxmemory}, where an EVAL script failed
     * only at its first write; the scripts that only read are flagged {@code no-writes}, so reads keep working.
     */
    @Test
    void overMaxmemoryTheReadsStillRunAndAScheduleIsRefusedWithNothingWritten() throws IOException {
        try (RedisServerProcess redis = RedisServerProcess.builder().start()) {
            assumeFunctions(redis);
            try (Hourglass hourglass = Hourglass.builder().redisUri(redis.uri()).build()) {
                hourglass.schedule(JobRequest.builder("t")
                        .id("kept")
                        .delay(Duration.ofHours(1))
                        .build());
                RawRedis.call(redis, r -> r.configSet("maxmemory", "1"));
                try {
                    assertThat(hourglass.get("t", "kept"))
                            .hasValueSatisfying(job -> assertThat(job.state()).isEqualTo(JobState.SCHEDULED));
                    assertThat(hourglass.get("t", "absent")).isEmpty();
                    assertThat(hourglass.stats("t").scheduled()).isEqualTo(1);
                    assertThat(hourglass.inspector().topic("t").scheduled()).isEqualTo(1);
                    assertThat(hourglass
                                    .inspector()
                                    .jobs("t", JobState.SCHEDULED, null, 10)
                                    .jobs())
                            .extracting(JobSummary::id)
                            .containsExactly("kept");
                    assertThat(hourglass.inspector().history("t")).isNotNull();
                    assertThat(hourglass.inspector().expired("t")).isZero();
                    assertThat(hourglass.deadLetters("t", 0, 10)).isEmpty();

                    assertThatThrownBy(() -> hourglass.schedule(
                                    JobRequest.builder("t").id("refused").build()))
                            .isInstanceOf(RedisUnavailableException.class)
                            .hasMessageContaining("OOM");
                } finally {
                    RawRedis.call(redis, r -> r.configSet("maxmemory", "0"));
                }
                assertThat(hourglass.get("t", "refused")).isEmpty();
                assertThat(hourglass.stats("t").scheduled()).isEqualTo(1);
            }
        }
    }

    private static void assumeFunctions(RedisServerProcess redis) {
        Assumptions.assumeTrue(
                Integer.parseInt(redis.version().split("\\.")[0]) >= 7,
                "skipped: Redis " + redis.version() + " has no functions");
    }

    private static void runJobs(RedisServerProcess redis, String uri, int jobs) {
        try (Hourglass hourglass = Hourglass.builder().redisUri(uri).build()) {
            List<String> delivered = new CopyOnWriteArrayList<>();
            hourglass.subscribe("t", job -> delivered.add(job.id()));
            for (int i = 0; i < jobs; i++) {
                hourglass.schedule(JobRequest.builder("t").build());
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == jobs);
        }
    }

    /** Calls of one command so far ({@code INFO commandstats}); 0 for one never called. */
    private static long calls(RedisServerProcess redis, String command) {
        for (String line : RawRedis.call(redis, r -> r.info("commandstats")).split("\r?\n")) {
            if (line.startsWith("cmdstat_" + command + ":")) {
                return Long.parseLong(line.replaceFirst("^[^:]+:calls=(\\d+),.*", "$1"));
            }
        }
        return 0;
    }
}
