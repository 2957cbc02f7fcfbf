package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class ServerArgumentsUnitTests {
    private static final String TOKENS =
            "[{\"token\": \"0123456789abcdef\", \"topics\": [\"*\"], \"rights\": [\"admin\"]}]";

    @TempDir
    Path dir;

    @Test
    void acceptsBothFlagStyles() {
        ServerArguments args = ServerArguments.parse(
                new String[] {
                    "--port",
                    "8081",
                    "--namespace=shop",
                    "--data-dir",
                    "/tmp/x",
                    "--shards=4",
                    "--redis",
                    "redis://h:6379",
                    "--insecure"
                },
                Map.of());

        assertThat(args.help()).isFalse();
        assertThat(args.toSpringArgs())
                .containsExactly(
                        "--server.port=8081",
                        "--hourglass.redis=redis://h:6379",
                        "--hourglass.data-dir=/tmp/x",
                        "--hourglass.namespace=shop",
                        "--hourglass.shards=4",
                        "--hourglass.insecure=true");
    }

    @Test
    void bindAndReplicaWaitAreFlagsWithEnvironmentVariables() {
        ServerArguments args = ServerArguments.parse(
                new String[] {"--bind", "0.0.0.0", "--wait-for-replicas=1"},
                Map.of("HOURGLASS_REPLICA_WAIT_TIMEOUT_MS", "250", "HOURGLASS_BIND", "127.0.0.1"));

        assertThat(args.toSpringArgs())
                .containsExactly(
                        "--hourglass.bind=0.0.0.0",
                        "--hourglass.wait-for-replicas=1",
                        "--hourglass.replica-wait-timeout-ms=250");
        assertThat(ServerArguments.usage()).contains("--bind").contains("HOURGLASS_WAIT_FOR_REPLICAS");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--bind", "no such host.invalid"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("bind: must be an IP address or host name");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--wait-for-replicas=-1"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("wait-for-replicas: must be an integer from 0 to 64");
    }

    @Test
    void theIdempotencyWindowIsADurationFlagWithAnEnvironmentVariable() {
        assertThat(ServerArguments.parse(new String[] {"--idempotency-window=30m"}, Map.of())
                        .toSpringArgs())
                .containsExactly("--hourglass.idempotency-window=30m");
        assertThat(ServerArguments.parse(new String[0], Map.of("HOURGLASS_IDEMPOTENCY_WINDOW", "0"))
                        .toSpringArgs())
                .containsExactly("--hourglass.idempotency-window=0");
        assertThat(ServerArguments.usage()).contains("--idempotency-window").contains("default 60m");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--idempotency-window=soon"}, Map.of()))
                .hasMessageStartingWith("idempotency-window: must be a duration");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--idempotency-window=-1s"}, Map.of()))
                .hasMessageStartingWith("idempotency-window: must be between 0");
    }

    @Test
    void completedRetentionAndDeadLetterLimitsAreFlagsCheckedAtStart() {
        assertThat(ServerArguments.parse(
                                new String[] {
                                    "--completed-retention=10m",
                                    "--dead-letter-max-count=500",
                                    "--dead-letter-max-age=7d"
                                },
                                Map.of())
                        .toSpringArgs())
                .containsExactlyInAnyOrder(
                        "--hourglass.completed-retention=10m",
                        "--hourglass.dead-letter-max-count=500",
                        "--hourglass.dead-letter-max-age=7d");
        assertThat(ServerArguments.usage())
                .contains("--completed-retention")
                .contains("--dead-letter-max-count")
                .contains("default 10000")
                .contains("default 14d");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--completed-retention=400d"}, Map.of()))
                .hasMessageStartingWith("completed-retention: must be between 0 (off) and 366 days");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--dead-letter-max-count=-5"}, Map.of()))
                .hasMessageStartingWith("dead-letter-max-count: must be an integer from 0");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--dead-letter-max-age=later"}, Map.of()))
                .hasMessageStartingWith("dead-letter-max-age: must be a duration");
    }

    @Test
    void fallsBackToEnvironmentVariablesButFlagsWin() {
        ServerArguments args = ServerArguments.parse(
                new String[] {"--port=9000"},
                Map.of(
                        "HOURGLASS_PORT",
                        "7000",
                        "HOURGLASS_REDIS",
                        "redis://r:1",
                        "HOURGLASS_DATA_DIR",
                        "/d",
                        "HOURGLASS_TOKENS",
                        TOKENS));

        assertThat(args.toSpringArgs())
                .containsExactly(
                        "--server.port=9000",
                        "--hourglass.redis=redis://r:1",
                        "--hourglass.data-dir=/d",
                        "--hourglass.tokens=" + TOKENS);
    }

    @Test
    void givesNoSettingsWhenNoneAreGiven() {
        assertThat(ServerArguments.parse(new String[0], Map.of()).toSpringArgs())
                .isEmpty();
    }

    @Test
    void readsTheLimitsTheCallbackSettingsAndTheTokensFile() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens.json"), TOKENS);

        ServerArguments args = ServerArguments.parse(
                new String[] {
                    "--max-payload-bytes",
                    "2048",
                    "--max-delay-ms=60000",
                    "--callback-allow",
                    "api.example.com, *.example.org,10.0.0.0/8",
                    "--tokens-file",
                    tokens.toString(),
                    "--redis",
                    "rediss://user:pass@h:6380"
                },
                Map.of(
                        "HOURGLASS_CALLBACK_SECRET",
                        "a-secret-of-16-chars-or-more",
                        "HOURGLASS_CALLBACK_NEXT_SECRET",
                        "the-next-secret-of-16-chars-or-more"));

        assertThat(args.toSpringArgs())
                .containsExactly(
                        "--hourglass.redis=rediss://user:pass@h:6380",
                        "--hourglass.max-payload-bytes=2048",
                        "--hourglass.max-delay-ms=60000",
                        "--hourglass.tokens-file=" + tokens,
                        "--hourglass.callback-secret=a-secret-of-16-chars-or-more",
                        "--hourglass.callback-next-secret=the-next-secret-of-16-chars-or-more",
                        "--hourglass.callback-allow=api.example.com, *.example.org,10.0.0.0/8");
        assertThat(args.toString())
                .doesNotContain("a-secret-of-16-chars-or-more")
                .doesNotContain("the-next-secret-of-16-chars-or-more");
        assertThat(args.toString()).doesNotContain("pass@").contains("rediss://user:****@h:6380");
    }

    @Test
    void insecureIsASwitchOrABoolean() {
        assertThat(ServerArguments.parse(new String[] {"--insecure=false"}, Map.of())
                        .toSpringArgs())
                .containsExactly("--hourglass.insecure=false");
        assertThat(ServerArguments.parse(new String[0], Map.of("HOURGLASS_INSECURE", "true"))
                        .toSpringArgs())
                .containsExactly("--hourglass.insecure=true");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--insecure=yes"}, Map.of()))
                .hasMessageStartingWith("insecure:");
    }

    @Test
    void theScheduleTickerIsASwitchThatCanBeTurnedOff() {
        assertThat(ServerArguments.parse(new String[] {"--schedule-ticker=false"}, Map.of())
                        .toSpringArgs())
                .containsExactly("--hourglass.schedule-ticker=false");
        assertThat(ServerArguments.parse(new String[0], Map.of("HOURGLASS_SCHEDULE_TICKER", "false"))
                        .toSpringArgs())
                .containsExactly("--hourglass.schedule-ticker=false");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--schedule-ticker=no"}, Map.of()))
                .hasMessageStartingWith("schedule-ticker:");
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void callbacksOnVirtualThreadsAreASwitchFromJava21() {
        assertThat(ServerArguments.parse(new String[] {"--callback-virtual-threads"}, Map.of())
                        .toSpringArgs())
                .containsExactly("--hourglass.callback-virtual-threads=true");
        assertThat(ServerArguments.parse(new String[0], Map.of("HOURGLASS_CALLBACK_VIRTUAL_THREADS", "false"))
                        .toSpringArgs())
                .containsExactly("--hourglass.callback-virtual-threads=false");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--callback-virtual-threads=yes"}, Map.of()))
                .hasMessageStartingWith("callback-virtual-threads:");
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void callbacksOnVirtualThreadsAreRefusedByNameBeforeJava21() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--callback-virtual-threads"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("callback-virtual-threads:")
                .hasMessageContaining("Java 21");
        assertThat(ServerArguments.parse(new String[] {"--callback-virtual-threads=false"}, Map.of())
                        .toSpringArgs())
                .containsExactly("--hourglass.callback-virtual-threads=false");
    }

    @Test
    void recognisesHelp() {
        assertThat(ServerArguments.parse(new String[] {"--help"}, Map.of()).help())
                .isTrue();
        assertThat(ServerArguments.usage())
                .contains(
                        "--port",
                        "HOURGLASS_PORT",
                        "--redis",
                        "--data-dir",
                        "--namespace",
                        "--shards",
                        "--max-payload-bytes",
                        "--max-delay-ms",
                        "--tokens-file",
                        "HOURGLASS_TOKENS",
                        "--insecure",
                        "--callback-secret",
                        "--callback-next-secret",
                        "--callback-allow",
                        "--callback-virtual-threads",
                        "--help");
    }

    @Test
    void refusesToStartWithoutTokensOnAnExternalRedisUnlessInsecure() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--redis", "redis://h:6379"}, Map.of()))
                .hasMessageStartingWith("tokens: refusing to start")
                .hasMessageContaining("--insecure");
        assertThat(ServerArguments.parse(new String[] {"--redis", "redis://h:6379", "--insecure"}, Map.of()))
                .isNotNull();
        assertThat(ServerArguments.parse(new String[] {"--data-dir", "/tmp/x"}, Map.of()))
                .isNotNull();
    }

    @Test
    void takesTokensOnlyFromTheEnvironmentOrAFile() {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--tokens", TOKENS}, Map.of()))
                .hasMessageStartingWith("tokens: give it in the environment variable HOURGLASS_TOKENS");
    }

    @Test
    void refusesUnknownFlagsMissingValuesAndBadValues() throws Exception {
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--prot", "1"}, Map.of()))
                .hasMessageStartingWith("prot:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--port"}, Map.of()))
                .hasMessageStartingWith("port:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--port", "http"}, Map.of()))
                .hasMessageStartingWith("port:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--shards=0"}, Map.of()))
                .hasMessageStartingWith("shards:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[0], Map.of("HOURGLASS_PORT", "99999")))
                .hasMessageStartingWith("port:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"8080"}, Map.of()))
                .hasMessageStartingWith("8080:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--namespace", "a b"}, Map.of()))
                .hasMessageStartingWith("namespace:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--max-payload-bytes", "0"}, Map.of()))
                .hasMessageStartingWith("max-payload-bytes:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--max-delay-ms", "-1"}, Map.of()))
                .hasMessageStartingWith("max-delay-ms:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--callback-secret", "short"}, Map.of()))
                .hasMessageStartingWith("signingSecret:");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--callback-next-secret", "short"}, Map.of()))
                .hasMessageStartingWith("nextSigningSecret:");
        assertThatThrownBy(() -> ServerArguments.parse(
                        new String[] {"--callback-next-secret", "a-secret-of-16-chars-or-more"}, Map.of()))
                .hasMessageStartingWith("nextSigningSecret: needs a signingSecret");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--callback-allow", "not a host"}, Map.of()))
                .hasMessageStartingWith("callbackAllowList:");
        assertThatThrownBy(() -> ServerArguments.parse(
                        new String[] {"--tokens-file", dir.resolve("none").toString()}, Map.of()))
                .hasMessageStartingWith("tokens-file: cannot read");
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"token\": \"x\"}");
        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--tokens-file", bad.toString()}, Map.of()))
                .hasMessageStartingWith("tokens-file (" + bad + "): must be a non-empty JSON array");
    }

    @Test
    void theHistoryFlagsNeedAPostgresUrlAndNeverShowItsPassword() {
        ServerArguments args = ServerArguments.parse(
                new String[] {
                    "--history-jdbc-url=jdbc:postgresql://db:5432/app?password=url-s3cret",
                    "--history-jdbc-user=app",
                    "--history-retention=90d"
                },
                Map.of("HOURGLASS_HISTORY_JDBC_PASSWORD", "env-s3cret"));
        assertThat(args.toSpringArgs())
                .contains(
                        "--hourglass.history-jdbc-user=app",
                        "--hourglass.history-jdbc-password=env-s3cret",
                        "--hourglass.history-retention=90d");
        assertThat(args.toString()).doesNotContain("s3cret").contains("password=****");
        assertThat(ServerArguments.usage()).contains("--history-jdbc-url", "HOURGLASS_HISTORY_JDBC_PASSWORD");

        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--history-jdbc-user=app"}, Map.of()))
                .hasMessageStartingWith("history-jdbc-user: needs --history-jdbc-url");
        assertThatThrownBy(() -> ServerArguments.parse(
                        new String[] {"--history-jdbc-url=jdbc:mysql://db/app?password=s3cret"}, Map.of()))
                .hasMessageStartingWith("history-jdbc-url: must be a PostgreSQL JDBC URL")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> ServerArguments.parse(
                        new String[] {"--history-jdbc-url=jdbc:postgresql://db/app", "--history-retention=soon"},
                        Map.of()))
                .hasMessageStartingWith("history-retention: must be a duration");
    }

    @Test
    void theTierFlagsSetTheStartersTierPropertiesNeedAUrlAndAHorizonAndNeverShowThePassword() {
        ServerArguments args = ServerArguments.parse(
                new String[] {
                    "--tier-jdbc-url=jdbc:postgresql://db:5432/app?password=url-s3cret",
                    "--tier-jdbc-user=app",
                    "--tier-horizon=1h"
                },
                Map.of("HOURGLASS_TIER_JDBC_PASSWORD", "env-s3cret"));
        assertThat(args.toSpringArgs())
                .contains(
                        "--hourglass.tier.jdbc.url=jdbc:postgresql://db:5432/app?password=url-s3cret",
                        "--hourglass.tier.jdbc.user=app",
                        "--hourglass.tier.jdbc.password=env-s3cret",
                        "--hourglass.tier.horizon=1h");
        assertThat(args.toString()).doesNotContain("s3cret").contains("password=****");
        assertThat(ServerArguments.usage())
                .contains("--tier-jdbc-url", "--tier-horizon", "HOURGLASS_TIER_JDBC_PASSWORD");

        assertThatThrownBy(() -> ServerArguments.parse(new String[] {"--tier-horizon=1h"}, Map.of()))
                .hasMessageStartingWith("tier-horizon: needs --tier-jdbc-url");
        assertThatThrownBy(() ->
                        ServerArguments.parse(new String[] {"--tier-jdbc-url=jdbc:postgresql://db/app"}, Map.of()))
                .hasMessageStartingWith("tier-horizon: needed with --tier-jdbc-url");
        for (String horizon : new String[] {"-5s", "500ms", "0"}) {
            assertThatThrownBy(() -> ServerArguments.parse(
                            new String[] {"--tier-jdbc-url=jdbc:postgresql://db/app", "--tier-horizon=" + horizon},
                            Map.of()))
                    .as(horizon)
                    .hasMessageStartingWith("tier-horizon: must be at least 1s");
        }
        assertThatThrownBy(() -> ServerArguments.parse(
                        new String[] {"--tier-jdbc-url=jdbc:mysql://db/app?password=s3cret", "--tier-horizon=1h"},
                        Map.of()))
                .hasMessageStartingWith("tier-jdbc-url: must be a PostgreSQL JDBC URL")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void theHistoryFlagsMapToTheStartersHistoryProperties() {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addFirst(new MapPropertySource(
                        "flags",
                        Map.<String, Object>of(
                                "hourglass.history-jdbc-url", " jdbc:postgresql://db/app ",
                                "hourglass.history-jdbc-user", "app",
                                "hourglass.history-jdbc-password", "s3cret",
                                "hourglass.history-retention", "90d")));
        new StarterPropertiesMapping().postProcessEnvironment(environment, new SpringApplication());
        assertThat(environment.getProperty("hourglass.history.jdbc.url")).isEqualTo("jdbc:postgresql://db/app");
        assertThat(environment.getProperty("hourglass.history.jdbc.user")).isEqualTo("app");
        assertThat(environment.getProperty("hourglass.history.jdbc.password")).isEqualTo("s3cret");
        assertThat(environment.getProperty("hourglass.history.retention")).isEqualTo("90d");
    }
}
