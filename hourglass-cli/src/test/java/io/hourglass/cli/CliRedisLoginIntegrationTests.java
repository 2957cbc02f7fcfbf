package io.hourglass.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hourglass.embedded.RedisServerProcess;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A Redis that asks for a password: the right one in HOURGLASS_REDIS logs in, a wrong one exits 3, never echoed. */
class CliRedisLoginIntegrationTests {
    private static final String PASSWORD = "cli-login-test-password-1";
    private static RedisServerProcess redis;

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServerProcess.builder().password(PASSWORD).start();
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    private static String uri(String password) {
        return redis.uri().replace("redis://", "redis://:" + password + "@");
    }

    @Test
    void theRightPasswordLogsIn() {
        CliRun run = CliRun.of(Map.of("HOURGLASS_REDIS", uri(PASSWORD)), "topics", "--json");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.json()).isEmpty();
    }

    @Test
    void aWrongPasswordExitsWith3WithoutEchoingIt() {
        String wrong = "wrong-password-never-printed";
        CliRun run = CliRun.of(Map.of("HOURGLASS_REDIS", uri(wrong)), "topics");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(HourglassCli.EXIT_REDIS_UNAVAILABLE);
        assertThat(run.err())
                .contains("Redis cannot be reached")
                .doesNotContain(wrong)
                .doesNotContain(PASSWORD);
        assertThat(run.out()).isEmpty();

        CliRun none = CliRun.of(Map.of("HOURGLASS_REDIS", redis.uri()), "topics");
        assertThat(none.exitCode()).as(none.toString()).isEqualTo(HourglassCli.EXIT_REDIS_UNAVAILABLE);
    }
}
