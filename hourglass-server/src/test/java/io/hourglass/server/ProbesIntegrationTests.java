package io.hourglass.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.embedded.RedisServerProcess;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Kubernetes' probes on the main port, open without a token: {@code /livez} stays UP while Redis is down (a restart
 * would not bring Redis back), {@code /readyz} goes DOWN (503) until Redis is back.
 */
class ProbesIntegrationTests {
    private static final String TOKENS =
            "[{\"token\": \"probes-admin-0123456789\", \"topics\": [\"*\"], \"rights\": [\"admin\"]}]";

    private RedisServerProcess redis;
    private ConfigurableApplicationContext server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void readinessIsDownWhileRedisIsDownAndLivenessStaysUp() throws Exception {
        redis = RedisServerProcess.builder().start();
        server = SpringApplication.run(
                HourglassServer.class,
                "--server.port=0",
                "--hourglass.redis=" + redis.uri(),
                "--hourglass.tokens=" + TOKENS);
        Api api = new Api(
                ((ServletWebServerApplicationContext) server).getWebServer().getPort());

        assertThat(status(api, "/livez")).isEqualTo("200 UP");
        assertThat(status(api, "/readyz")).isEqualTo("200 UP");
        assertThat(api.get("/actuator/health").status())
                .as("no other Actuator endpoint is served")
                .isIn(401, 404);

        redis.stop();

        await().atMost(Duration.ofSeconds(15))
                .until(() -> status(api, "/readyz").equals("503 DOWN"));
        assertThat(status(api, "/livez")).isEqualTo("200 UP");

        redis.start();

        await().atMost(Duration.ofSeconds(15))
                .until(() -> status(api, "/readyz").equals("200 UP"));
        assertThat(status(api, "/livez")).isEqualTo("200 UP");
    }

    /** @return e.g. {@code "200 UP"}: the HTTP status and the probe's status, asked without a token */
    private static String status(Api api, String path) {
        Api.Response response = api.get(path);
        return response.status() + " " + response.body().get("status").asText();
    }
}
