package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hourglass.embedded.RedisServerProcess;
import io.hourglass.testkit.RedisTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * When the API is authenticated: with tokens always (from a file, the environment, or both); without tokens only on the
 * embedded development Redis or with {@code --insecure}, each with a startup warning; otherwise the server refuses to
 * start, saying why.
 */
@RedisTest
class AuthStartupIntegrationTests {
    private static final String TOKEN_IN_FILE = "from-the-file-0123456789";
    private static final String TOKEN_IN_ENV = "from-the-environment-0123456789";

    @TempDir
    Path dir;

    private ConfigurableApplicationContext server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private Api start(RedisServerProcess redis, String... settings) {
        String[] args = new String[settings.length + 2];
        args[0] = "--server.port=0";
        args[1] = "--hourglass.redis=" + redis.uri();
        System.arraycopy(settings, 0, args, 2, settings.length);
        server = SpringApplication.run(HourglassServer.class, args);
        return new Api(
                ((ServletWebServerApplicationContext) server).getWebServer().getPort());
    }

    @Test
    void refusesToStartOnAnExternalRedisWithoutTokens(RedisServerProcess redis) {
        assertThatThrownBy(() -> start(redis))
                .rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("tokens: refusing to start")
                .hasMessageContaining("--tokens-file")
                .hasMessageContaining("HOURGLASS_TOKENS")
                .hasMessageContaining("--insecure");
    }

    @Test
    void theCommandLineRefusesToStartOnAnExternalRedisWithoutTokens(RedisServerProcess redis) throws Exception {
        try (ServerProcess process = ServerProcess.start("--redis", redis.uri())) {
            assertThat(process.awaitExit(30)).isEqualTo(2);
            assertThat(process.output())
                    .contains("error: tokens: refusing to start")
                    .contains("--insecure");
        }
    }

    @Test
    void runsUnauthenticatedWhenToldItIsInsecureAndWarns(RedisServerProcess redis) {
        PrintStream console = System.out;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        // Logback's console appender writes to whatever System.out is at the time.
        System.setOut(new PrintStream(new TeeOutputStream(console, logged), true, StandardCharsets.UTF_8));
        try {
            Api api = start(redis, "--hourglass.insecure=true");

            assertThat(api.get("/v1/topics").status()).isEqualTo(200);
            assertThat(logged.toString(StandardCharsets.UTF_8))
                    .containsPattern("WARN .*The HTTP API is unauthenticated \\(--insecure\\)");
        } finally {
            System.setOut(console);
        }
    }

    /** Writes to two streams. */
    private static final class TeeOutputStream extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        TeeOutputStream(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            synchronized (second) {
                second.write(b);
            }
        }
    }

    @Test
    void acceptsTokensFromAFileAndTheEnvironmentTogether(RedisServerProcess redis) throws Exception {
        Path file = Files.writeString(
                dir.resolve("tokens.json"),
                "[{\"token\": \"" + TOKEN_IN_FILE + "\"," + " \"topics\": [\"*\"], \"rights\": [\"admin\"]}]");

        Api api = start(
                redis,
                "--hourglass.tokens-file=" + file,
                "--hourglass.tokens=[{\"token\": \"" + TOKEN_IN_ENV
                        + "\", \"topics\": [\"*\"], \"rights\": [\"admin\"]}]");

        assertThat(api.withToken(TOKEN_IN_FILE).get("/v1/topics").status()).isEqualTo(200);
        assertThat(api.withToken(TOKEN_IN_ENV).get("/v1/topics").status()).isEqualTo(200);
        assertThat(api.get("/v1/topics").status()).isEqualTo(401);
    }

    @Test
    void tokensMakeInsecureIrrelevant(RedisServerProcess redis) {
        Api api = start(
                redis,
                "--hourglass.insecure=true",
                "--hourglass.tokens=[{\"token\": \"" + TOKEN_IN_ENV
                        + "\", \"topics\": [\"*\"], \"rights\": [\"admin\"]}]");

        assertThat(api.get("/v1/topics").status()).isEqualTo(401);
        assertThat(api.withToken(TOKEN_IN_ENV).get("/v1/topics").status()).isEqualTo(200);
    }

    @Test
    void refusesToStartWithAMalformedTokensFileNamingTheEntry(RedisServerProcess redis) throws Exception {
        Path file = Files.writeString(
                dir.resolve("tokens.json"),
                "[{\"token\": \"" + TOKEN_IN_FILE + "\"," + " \"topics\": [\"*\"], \"rights\": [\"root\"]}]");

        assertThatThrownBy(() -> start(redis, "--hourglass.tokens-file=" + file))
                .rootCause()
                .hasMessageStartingWith(
                        "tokens-file (" + file + "): [0].rights[0]: must be produce, consume, admin or metrics")
                .hasMessageNotContaining(TOKEN_IN_FILE);
    }
}
