package io.hourglass.server;

import static io.hourglass.server.Api.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hourglass.embedded.RedisServerProcess;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** While Redis is down the API answers 503 with Retry-After (never a hang or a 500), and recovers after. */
class RedisOutageIntegrationTests {
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
    void answers503WhileRedisIsDownAndRecoversWhenItIsBack() throws Exception {
        redis = RedisServerProcess.builder().appendOnly(true).start();
        server = SpringApplication.run(
                HourglassServer.class,
                "--server.port=0",
                "--hourglass.redis=" + redis.uri(),
                "--hourglass.insecure=true");
        Api api = new Api(
                ((ServletWebServerApplicationContext) server).getWebServer().getPort());
        assertThat(api.post("/v1/topics/outage/jobs", json("id", "before", "payload", 1))
                        .status())
                .isEqualTo(201);

        redis.stop();

        var health = api.get("/health");
        assertThat(health.status()).isEqualTo(503);
        assertThat(health.body().get("status").asText()).isEqualTo("DOWN");
        var schedule = api.post("/v1/topics/outage/jobs", json("id", "during", "payload", 1));
        assertThat(schedule.status()).isEqualTo(503);
        assertThat(schedule.raw().headers().firstValue("Retry-After")).hasValue("1");
        assertThat(schedule.error()).isNotBlank();
        var reserve = api.post("/v1/topics/outage/reservations", json("waitMs", 100));
        assertThat(reserve.status()).isEqualTo(503);
        assertThat(reserve.raw().headers().firstValue("Retry-After")).hasValue("1");

        redis.start();

        await().atMost(Duration.ofSeconds(15)).until(() -> api.get("/health").status() == 200);
        assertThat(api.get("/v1/topics/outage/jobs/before").status()).isEqualTo(200);
        assertThat(api.post("/v1/topics/outage/jobs", json("id", "after", "payload", 1))
                        .status())
                .isEqualTo(201);
    }
}
